/**
 * One migrated database per test run, which every test file's fresh database starts as a copy of
 * (tests/helpers/database.ts): PGlite's data directory dumped to a file, or a PostgreSQL template
 * database. Running the migrations once instead of once per file spares each file PGlite's initdb
 * (~2 s of CPU) or the migrations' statements. A file that asks for an older schema still
 * migrates its own database from scratch.
 */
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openPglite, openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { withDatabase } from "./database";

export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = openPglite();
    await migrate(handle.db);
    const dump = await handle.dumpDataDir();
    await handle.close();
    const file = join(tmpdir(), `bscpay-pglite-template-${process.pid}-${randomBytes(4).toString("hex")}.tar`);
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env.PGLITE_TEMPLATE = file;
    return async () => rmSync(file, { force: true });
  }
  const name = `bscpay_template_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const handle = openPostgres(withDatabase(serverUrl, name), { max: 1 });
  await migrate(handle.db);
  await handle.close();
  process.env.PG_TEMPLATE_DATABASE = name;
  return async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
