/**
 * Which deposit addresses a reconciliation run reads on chain: those that can hold something,
 * not every address ever derived (a history of a million sessions would be a million balance
 * reads a day). Each run covers
 * - open: the addresses of pending sessions (a payment may arrive any moment);
 * - recent: addresses with a deposit recorded in the last RECENT_DAYS days;
 * - unforwarded: addresses with a deposit no sweep took yet, or a sweep not completed (pending,
 *   in flight or held) — every address where the ledger expects funds;
 * - sampled: the next `sampleSize` addresses of the rest in deposit-index order, from a position
 *   kept in app_state that advances each run and wraps around, so that over enough runs every
 *   address ever made is read again (tokens sent to an old address behind the ledger's back).
 * Every read goes through an index: the cost follows open work and the sample, not the history.
 */
import { eq, sql } from "drizzle-orm";
import { type Address, getAddress } from "viem";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { appState } from "../../db/schema";

export const RECENT_DAYS = 7;
/** Old addresses read per run: a daily run reads 5,000 × 365 ≈ 1.8M addresses a year. */
export const RECONCILE_SAMPLE_SIZE = 5_000;

export interface Coverage {
  network: string;
  /** Distinct addresses read on chain (the categories overlap). */
  addresses: number;
  open: number;
  recent: number;
  unforwarded: number;
  sampled: number;
  /** The deposit indexes the rolling sample covered this run (null: nothing sampled). */
  sampleFrom: number | null;
  sampleTo: number | null;
  /** The sample reached the last address and starts again from the first next run. */
  sampleWrapped: boolean;
}

const sampleKey = (network: string) => `reconcile-sample:${network}`;

/** The addresses to read this run, and what they cover; advances the rolling sample's position. */
export async function addressesToReconcile(
  db: Db,
  network: string,
  options: { sampleSize?: number; now?: Date } = {},
): Promise<{ addresses: Address[]; coverage: Coverage }> {
  const sampleSize = options.sampleSize ?? RECONCILE_SAMPLE_SIZE;
  const since = new Date((options.now ?? new Date()).getTime() - RECENT_DAYS * 86_400_000);
  const column = (rows: unknown) => rowsOf<{ address: string }>(rows).map((r) => getAddress(r.address));
  // status = 'pending' is the predicate of payment_sessions_pending_expiry_idx.
  const open = column(
    await db.execute(sql`select deposit_address as address from payment_sessions where status = 'pending' and network = ${network}`),
  );
  const recent = column(
    await db.execute(
      sql`select distinct to_address as address from deposits where network = ${network} and created_at >= ${since.toISOString()}::timestamptz`,
    ),
  );
  // Each part through its own (partial) index: unplanned deposits, open forwards, held forwards.
  const unforwarded = column(
    await db.execute(sql`
      select to_address as address from deposits where network = ${network} and forward_id is null
      union select from_address from forwards where status in ('pending', 'gas_sent', 'sweep_sent', 'batched') and network = ${network}
      union select from_address from forwards where network = ${network} and status = 'held'`),
  );
  const sample = await nextSample(db, network, sampleSize);
  const addresses = [...new Set([...open, ...recent, ...unforwarded, ...sample.addresses])];
  return {
    addresses,
    coverage: {
      network,
      addresses: addresses.length,
      open: open.length,
      recent: recent.length,
      unforwarded: new Set(unforwarded).size,
      sampled: sample.addresses.length,
      sampleFrom: sample.from,
      sampleTo: sample.to,
      sampleWrapped: sample.wrapped,
    },
  };
}

/** The next `size` sessions' addresses after the kept position (deposit index order, its unique index), and the position moved past them. */
async function nextSample(db: Db, network: string, size: number) {
  const [kept] = await db
    .select()
    .from(appState)
    .where(eq(appState.key, sampleKey(network)));
  const position = (kept?.value as { after?: unknown } | undefined)?.after;
  const after = typeof position === "number" ? position : -1;
  const rows =
    size <= 0
      ? []
      : rowsOf<{ index: string; address: string }>(
          await db.execute(sql`
            select deposit_index::text as index, deposit_address as address from payment_sessions
            where deposit_index > ${after} and network = ${network} order by deposit_index limit ${size}`),
        );
  const wrapped = rows.length < size;
  const last = rows.at(-1);
  const value = { after: wrapped || !last ? -1 : Number(last.index) };
  await db
    .insert(appState)
    .values({ key: sampleKey(network), value })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: new Date() } });
  return {
    addresses: rows.map((r) => getAddress(r.address)),
    from: rows[0] ? Number(rows[0].index) : null,
    to: last ? Number(last.index) : null,
    wrapped,
  };
}
