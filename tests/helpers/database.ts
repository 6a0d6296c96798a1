import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { setDatabase } from "@/lib/db";
import { type DatabaseHandle, type Db, openPglite, openPostgres } from "@/lib/db/client";
import { type Migration, migrate } from "@/lib/db/migrate";
import { wireEngine } from "@/lib/domain/payments/engine-ports";

// A test with a database may run the engine: its ports are wired as every process that runs the
// engine wires them. Here rather than in setup.ts, so the unit tests do not import the payments
// domain (~2 s a file).
wireEngine();

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server of TEST_DATABASE_URL (dropped again afterwards). `migrations`: only
 * these (a database as an older release left it).
 */
export async function createTestDatabase(migrations?: Migration[]): Promise<DatabaseHandle & { url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  // The run's migrated template (global-setup.ts), unless the file asks for an older schema.
  const pgliteTemplate = migrations === undefined ? process.env.PGLITE_TEMPLATE : undefined;
  const pgTemplate = migrations === undefined ? process.env.PG_TEMPLATE_DATABASE : undefined;
  if (!serverUrl) {
    const handle = openPglite(undefined, pgliteTemplate ? { loadDataDir: new Blob([readFileSync(pgliteTemplate)]) } : {});
    await migrate(handle.db, migrations); // nothing left to apply on a copy of the template
    return handle;
  }
  const name = `bscpay_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(pgTemplate ? `create database ${name} template ${pgTemplate}` : `create database ${name}`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const handle = openPostgres(url, { max: 5 });
  await migrate(handle.db, migrations);
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Registers a fresh database for the current test file as the process database; returns a getter. */
export function useTestDatabase(): () => Db {
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    handle = await createTestDatabase();
    setDatabase(handle);
  });
  afterAll(async () => {
    await handle?.close();
  });
  return () => {
    if (!handle) throw new Error("test database not ready");
    return handle.db;
  };
}

/**
 * A migrated PGlite in `dir`, installed as the process database: for tests that hand the same
 * database to a child process (which is then killed) and open it again, as a restart would.
 */
export async function openFileDatabase(dir: string): Promise<DatabaseHandle> {
  const handle = openPglite(dir);
  await migrate(handle.db);
  setDatabase(handle);
  return handle;
}
