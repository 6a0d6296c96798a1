/**
 * What the gas tank spent on a merchant's behalf, read from the ledger through gas_charges
 * (docs/design.md §18). A settled row costs the BNB it sent plus the fee its receipt shows; a pending
 * one the most it can cost (value + gas limit × price), so a burst of sends counts before it is
 * mined; a replaced row costs nothing (its replacement carries the charge). Days are UTC.
 */

import { type SQL, sql } from "drizzle-orm";
import { KEYSET_TIME_FORMAT } from "../../base/cursor";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";

const ROW_COST = sql`(case ct.status
  when 'mined' then ct.value + coalesce(ct.fee_paid, ct.gas_used * ct.gas_price, 0)
  when 'reverted' then coalesce(ct.fee_paid, ct.gas_used * ct.gas_price, 0)
  when 'pending' then ct.value + ct.gas_limit * ct.gas_price
  else 0 end)`;
const SHARE = sql`div(${ROW_COST} * gc.units, gc.total_units)`;

/** What the spend is for (the ledger kinds behind each below; the merchant's words in lib/web/dashboard/shared/wording.ts). */
export const GAS_SPEND_KINDS = ["sweep", "batch", "withdrawal", "replacement"] as const;
export type GasSpendKind = (typeof GAS_SPEND_KINDS)[number];

const KIND = sql`(case ct.kind
  when 'sweep_gas' then 'sweep'
  when 'batch' then 'batch'
  when 'wallet_gas' then 'withdrawal'
  else 'replacement' end)`;

export function utcDayStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Charges of ledger rows signed since `since`: gc.created_at is the ledger row's own (written with
 * it), so the index (user_id, created_at) bounds the read to the window; the ledger's time stays the test.
 */
const sinceBound = (since: Date) => sql`gc.created_at >= ${since.toISOString()} and ct.created_at >= ${since.toISOString()}`;

/** Wei charged to the user for ledger rows signed since `since`. */
export async function gasSpentSince(db: Db, userId: number, since: Date): Promise<bigint> {
  const [row] = rowsOf<{ wei: string | null }>(
    await db.execute(sql`
      select sum(${SHARE})::text as wei
      from gas_charges gc join chain_transactions ct on ct.id = gc.chain_tx_id
      where gc.user_id = ${userId} and ${sinceBound(since)}`),
  );
  return BigInt(row?.wei ?? "0");
}

export interface GasSpendDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  kind: GasSpendKind;
  wei: bigint;
  transactions: number;
}

/** Per UTC day and kind, the last `days` days (today included), oldest first. */
export async function gasSpendByDay(db: Db, userId: number, days: number, now = new Date()): Promise<GasSpendDay[]> {
  const since = new Date(utcDayStart(now).getTime() - (days - 1) * 86_400_000);
  const rows = rowsOf<{ day: string; kind: GasSpendKind; wei: string; n: number | string }>(
    await db.execute(sql`
      select to_char(ct.created_at at time zone 'UTC', 'YYYY-MM-DD') as day, ${KIND} as kind,
             sum(${SHARE})::text as wei, count(*)::int as n
      from gas_charges gc join chain_transactions ct on ct.id = gc.chain_tx_id
      where gc.user_id = ${userId} and ${sinceBound(since)}
      group by 1, 2 order by 1, 2`),
  );
  return rows.map((r) => ({ day: r.day, kind: r.kind, wei: BigInt(r.wei), transactions: Number(r.n) }));
}

export interface GasSpender {
  userId: number;
  email: string;
  wei: bigint;
}

/** The merchants who cost the tank most since `since` (operator's view). */
export async function topGasSpenders(db: Db, since: Date, limit = 10): Promise<GasSpender[]> {
  return spenders(db, sql`ct.created_at >= ${since.toISOString()}`, limit);
}

async function spenders(db: Db, where: SQL, limit: number): Promise<GasSpender[]> {
  const rows = rowsOf<{ user_id: number; email: string; wei: string }>(
    await db.execute(sql`
      select gc.user_id, u.email, sum(${SHARE})::text as wei
      from gas_charges gc join chain_transactions ct on ct.id = gc.chain_tx_id join users u on u.id = gc.user_id
      where ${where}
      group by gc.user_id, u.email order by sum(${SHARE}) desc, gc.user_id limit ${limit}`),
  );
  return rows.map((r) => ({ userId: Number(r.user_id), email: r.email, wei: BigInt(r.wei) }));
}

/** One ledger row charged to a merchant, for the gas CSV: what it was for and the merchant's share. */
export interface GasCharge {
  /** The ledger row's `created_at`, UTC with microseconds: the time the CSV shows. */
  time: string;
  id: number;
  kind: GasSpendKind;
  status: string;
  txHash: string;
  wei: bigint;
  /** The charge's own `created_at` as microsecond text (lib/base/cursor.ts): the keyset's bound, with `id`. */
  cursorTime: string;
}

/**
 * The merchant's charged ledger rows, newest first, strictly after `after` (a previous batch's last
 * row). Paged on the charge's own (created_at, chain_tx_id), which the index (user_id, created_at,
 * chain_tx_id) walks from the bound: a batch reads its rows only, never sorts the merchant's whole
 * history of charges. The charge's time is its ledger row's (written with it, backfilled by 0030).
 */
export async function gasChargesAfter(
  db: Db,
  userId: number,
  after: { time: string; id: number } | null,
  limit: number,
): Promise<GasCharge[]> {
  const bound = after ? sql`and (gc.created_at, gc.chain_tx_id) < (${after.time}::timestamptz, ${after.id})` : sql``;
  const rows = rowsOf<{
    time: string;
    cursor_time: string;
    id: number | string;
    kind: GasSpendKind;
    status: string;
    tx_hash: string;
    wei: string;
  }>(
    await db.execute(sql`
      select to_char(ct.created_at at time zone 'UTC', ${KEYSET_TIME_FORMAT}) as time,
             to_char(gc.created_at at time zone 'UTC', ${KEYSET_TIME_FORMAT}) as cursor_time, ct.id, ${KIND} as kind, ct.status,
             ct.tx_hash, ${SHARE}::text as wei
      from gas_charges gc join chain_transactions ct on ct.id = gc.chain_tx_id
      where gc.user_id = ${userId} ${bound}
      order by gc.created_at desc, gc.chain_tx_id desc limit ${limit}`),
  );
  return rows.map((r) => ({
    time: r.time,
    cursorTime: r.cursor_time,
    id: Number(r.id),
    kind: r.kind,
    status: r.status,
    txHash: r.tx_hash,
    wei: BigInt(r.wei),
  }));
}
