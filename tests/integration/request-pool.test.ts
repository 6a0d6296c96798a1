import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, requestDb } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { createTestDatabase } from "../helpers/database";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const backend = async (db: DatabaseHandle["db"]) =>
  Number(rowsOf<{ pid: number }>(await db.execute(sql`select pg_backend_pid() as pid`))[0]!.pid);

describe("request pool (hot single statements of API requests)", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "pipelines many concurrent statements over two connections of their own (PostgreSQL)",
    async () => {
      const db = requestDb(handle.db);
      expect(db).not.toBe(handle.db);
      const pids = await Promise.all(Array.from({ length: 60 }, () => backend(db)));
      expect(new Set(pids).size).toBeLessThanOrEqual(2);
      const main = await Promise.all(Array.from({ length: 20 }, () => backend(handle.db)));
      expect(main.some((pid) => !pids.includes(pid))).toBe(true); // the main pool is another set of connections
    },
  );

  it("leaves a transaction (and PGlite) to itself", async () => {
    await handle.db.transaction(async (tx) => {
      expect(requestDb(tx)).toBe(tx);
    });
    if (!process.env.TEST_DATABASE_URL) expect(requestDb(handle.db)).toBe(handle.db);
  });
});
