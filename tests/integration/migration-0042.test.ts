/**
 * 0039 was edited once after it shipped (it briefly carried the account's payout-batch index);
 * 0042 adds that index on its own. Both kinds of database must start: the one that ran 0039 as it
 * first shipped gets the index from 0042, and the one that ran the edited 0039 does not run 0039
 * again (which would fail on CREATE TABLE) — lib/db/migrate.ts EARLIER_HASHES.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "@/lib/db/client";
import { EARLIER_HASHES, type Migration, migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { createTestDatabase } from "../helpers/database";

const INDEX = `CREATE INDEX "payout_batches_user_created_id_idx" ON "payout_batches" USING btree ("user_id","created_at","id");`;
const KEY_INDEX_LINE = `CREATE INDEX "payout_batches_key_created_id_idx" ON "payout_batches" USING btree ("api_key_id","created_at","id");--> statement-breakpoint\n`;

/** 0039 as it was while it carried the index, byte for byte (its hash is the one those databases recorded). */
function editedMigration0039(original: Migration, text: string): Migration {
  const edited = text.replace(KEY_INDEX_LINE, `${KEY_INDEX_LINE}${INDEX}--> statement-breakpoint\n`);
  return {
    ...original,
    hash: createHash("sha256").update(edited).digest("hex"),
    statements: edited
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

async function hasIndex(handle: DatabaseHandle): Promise<boolean> {
  const rows = rowsOf<{ found: string | null }>(
    await handle.db.execute(sql`select to_regclass('public.payout_batches_user_created_id_idx')::text as found`),
  );
  return Boolean(rows[0]?.found);
}

let handle: DatabaseHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

describe("migration 0042 (the account's payout-batch index)", () => {
  const all = readMigrations();
  const upTo0041 = all.filter((m) => m.tag < "0042");
  // The migrations this file is about: later ones are other files' (migration-0045.test.ts…).
  const upTo0042 = all.filter((m) => m.tag < "0043");

  it("adds the index to a database that ran 0039 as it first shipped", async () => {
    handle = await createTestDatabase(upTo0041);
    expect(await hasIndex(handle)).toBe(false);
    expect(await migrate(handle.db, upTo0042)).toEqual(["0042_payout_batches_account_index"]);
    expect(await hasIndex(handle)).toBe(true);
  }, 120_000);

  it("starts a database that ran the edited 0039: 0039 is not run again, 0042 changes nothing", async () => {
    const { readFileSync } = await import("node:fs");
    const original = upTo0041.find((m) => m.tag === "0039_payout_batches")!;
    const edited = editedMigration0039(original, readFileSync("drizzle/0039_payout_batches.sql", "utf8"));
    expect(EARLIER_HASHES["0039_payout_batches"]).toContain(edited.hash);
    handle = await createTestDatabase(upTo0041.map((m) => (m.tag === "0039_payout_batches" ? edited : m)));
    expect(await hasIndex(handle)).toBe(true);
    expect(await migrate(handle.db, upTo0042)).toEqual(["0042_payout_batches_account_index"]);
    expect(await hasIndex(handle)).toBe(true);
  }, 120_000);
});
