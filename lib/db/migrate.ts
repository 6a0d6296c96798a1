import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { completeMovedLedgerRows } from "./ledger-backfill";
import { rowsOf } from "./rows";

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export interface Migration {
  tag: string;
  hash: string;
  createdAt: number;
  statements: string[];
}

const MIGRATION_LOCK_ID = 7_284_019_331; // any constant; shared by every process of this service

/**
 * Files edited after some databases had applied them, with the hashes those databases recorded:
 * applied under any of them counts as applied (never run twice, which would fail on CREATE TABLE).
 * 0039 briefly carried the index that 0042 now adds (IF NOT EXISTS, for the databases that have it).
 */
export const EARLIER_HASHES: Readonly<Record<string, readonly string[]>> = {
  "0039_payout_batches": ["4ddaa40133b54f7ce221c1019b031eb977460249d2fb00847ffa614eb40c379a"],
};

export function readMigrations(folder = join(process.cwd(), "drizzle")): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries
    .sort((a, b) => a.idx - b.idx)
    .map((entry) => {
      const text = readFileSync(join(folder, `${entry.tag}.sql`), "utf8");
      return {
        tag: entry.tag,
        hash: createHash("sha256").update(text).digest("hex"),
        createdAt: entry.when,
        statements: text
          .split("--> statement-breakpoint")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    });
}

/**
 * Applies the pending migrations of `drizzle/` in one transaction under an advisory lock, so two
 * processes starting at once apply them once. Bookkeeping uses drizzle-kit's own table, so
 * `drizzle-kit migrate` and this function agree on what is applied.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (
      id serial primary key, hash text not null, created_at bigint)`);
    const applied = new Set(
      rowsOf<{ hash: string }>(await tx.execute(sql`select hash from drizzle.__drizzle_migrations`)).map((r) => r.hash),
    );
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.hash) || (EARLIER_HASHES[migration.tag] ?? []).some((hash) => applied.has(hash))) continue;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${migration.hash}, ${migration.createdAt})`);
      done.push(migration.tag);
    }
    if (done.length > 0 && (await ledgerExists(tx))) await completeMovedLedgerRows(tx);
    return done;
  });
}

async function ledgerExists(tx: Db): Promise<boolean> {
  const [row] = rowsOf<{ found: string | null }>(await tx.execute(sql`select to_regclass('public.chain_transactions')::text as found`));
  return Boolean(row?.found);
}
