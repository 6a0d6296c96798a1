import { getConfig } from "../base/config";
import { type DatabaseHandle, type Db, openPglite, openPostgres } from "./client";
import { migrate } from "./migrate";

export type { Db } from "./client";
export * as schema from "./schema";

const DB_KEY = Symbol.for("bsc-pay.db");
type DbHolder = { [DB_KEY]?: Promise<DatabaseHandle> };

/**
 * The process-wide database, migrated before first use. One instance per process (kept on
 * globalThis because Next.js may load this module in more than one bundle).
 */
export function getDatabase(): Promise<DatabaseHandle> {
  const holder = globalThis as DbHolder;
  holder[DB_KEY] ??= openAndMigrate().catch((error) => {
    delete holder[DB_KEY];
    throw error;
  });
  return holder[DB_KEY];
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Tests install their own fresh database here. */
export function setDatabase(handle: DatabaseHandle): void {
  (globalThis as DbHolder)[DB_KEY] = Promise.resolve(handle);
}

export async function closeDatabase(): Promise<void> {
  const holder = globalThis as DbHolder;
  const pending = holder[DB_KEY];
  delete holder[DB_KEY];
  if (pending) await (await pending).close();
}

async function openAndMigrate(): Promise<DatabaseHandle> {
  const config = getConfig();
  const handle = config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.pgliteDir);
  try {
    await migrate(handle.db);
  } catch (error) {
    await handle.close().catch(() => {});
    throw new DatabaseUnavailableError(describeDbError(error, handle.driver));
  }
  return handle;
}

export class DatabaseUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseUnavailableError";
  }
}

/** One line about what failed, without the connection string (it may carry a password). */
function describeDbError(error: unknown, driver: "pglite" | "postgres"): string {
  const variable = driver === "postgres" ? "DATABASE_URL" : "PGLITE_DIR";
  const err = error as { code?: string; message?: string; cause?: { message?: string } };
  const detail = [err.code, err.message ?? err.cause?.message].filter(Boolean).join(" ");
  return `${variable}: cannot open and migrate the database (${detail.replace(/postgres(ql)?:\/\/\S+/g, "<url>")})`;
}
