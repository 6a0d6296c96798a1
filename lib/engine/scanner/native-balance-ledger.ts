/**
 * What the service's own records say a deposit address's BNB balance is at a block: the native
 * deposits recorded up to it (the block reader's plain transfers, the poller's earlier findings),
 * plus what the ledger sent to the address (the gas tank's top-ups), less what left it (its own
 * transactions' value and fee, and batched sweeps of its BNB) — each counted once its transaction
 * is final in the ledger and mined at or below the block. A balance above it is BNB nobody has
 * recorded: an internal transfer. Exact by construction, so reading again at the same or a later
 * block finds the same remainder once it is recorded: nothing here depends on an earlier reading.
 *
 * An address is `moving` while something of ours may be changing its balance unseen: a ledger row
 * from or to it still pending, or a forward of it in flight (a batch's BNB leaves the address in
 * the gas tank's transaction). The poller reads it again later instead of guessing. The check runs
 * before the sums, so a row settling in between is either seen pending or counted.
 */
import { type AnyColumn, and, eq, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db";
import { chainTransactions, forwards, IN_FLIGHT_FORWARD_STATUSES, sweepBatches } from "../../db/schema/engine";
import { NATIVE_SPELLINGS } from "../chain/native";
import type { NativeWatchPort } from "./native-watch";

/** Addresses per query. */
const CHUNK = 1000;

/** `column = any($1::text[])`: one parameter for the whole list (1,000 IN parameters plan ~5× slower). */
const anyOf = (column: AnyColumn, values: readonly string[]) => sql`${column} = any(${sql.param(values)}::text[])`;

export interface NativeAccount {
  /** The balance the records explain at the block (may be negative while an internal transfer left unrecorded in a sweep). */
  explained: bigint;
  /** Something of ours may be moving its BNB: read it again later. */
  moving: boolean;
}

/** Each address's explained BNB balance at `block` (checksummed addresses, as the ledger and sessions keep them). */
export async function explainedBalances(
  db: Db,
  network: string,
  addresses: readonly string[],
  block: bigint,
  port: NativeWatchPort,
): Promise<Map<string, NativeAccount>> {
  const accounts = new Map<string, NativeAccount>();
  for (let start = 0; start < addresses.length; start += CHUNK) {
    const chunk = [...new Set(addresses.slice(start, start + CHUNK))];
    for (const address of chunk) accounts.set(address, { explained: 0n, moving: false });
    // First whether anything moves (see the header): then the sums, each its own statement.
    for (const address of await movingAddresses(db, network, chunk)) {
      const account = accounts.get(address);
      if (account) account.moving = true;
    }
    const add = (rows: { address: string; total: string | null }[], sign: 1n | -1n) => {
      for (const row of rows) {
        const account = accounts.get(row.address);
        if (account) account.explained += sign * BigInt(row.total ?? "0");
      }
    };
    add(await port.nativeReceived(db, network, chunk, block), 1n);
    add(await sentByLedger(db, network, chunk, block), 1n);
    add(await spentByLedger(db, network, chunk, block), -1n);
    add(await sweptInBatches(db, network, chunk, block), -1n);
  }
  return accounts;
}

/**
 * Of these addresses, those that ever received a recorded native deposit. An address holding no BNB
 * that never did is explained without asking more: only a sweep of its recorded BNB can have taken
 * more than the records brought (an internal transfer swept along), and its own gas costs never
 * exceed the top-ups that paid them.
 */
export async function withNativeDeposits(
  db: Db,
  network: string,
  addresses: readonly string[],
  port: NativeWatchPort,
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let start = 0; start < addresses.length; start += CHUNK) {
    for (const address of await port.withNativeDeposits(db, network, addresses.slice(start, start + CHUNK))) found.add(address);
  }
  return found;
}

async function movingAddresses(db: Db, network: string, chunk: string[]): Promise<string[]> {
  const [inFlight, pending] = [
    await db
      .selectDistinct({ address: forwards.fromAddress })
      .from(forwards)
      .where(
        and(eq(forwards.network, network), anyOf(forwards.fromAddress, chunk), inArray(forwards.status, [...IN_FLIGHT_FORWARD_STATUSES])),
      ),
    await db
      .select({ wallet: chainTransactions.wallet, to: chainTransactions.toAddress })
      .from(chainTransactions)
      .where(
        and(
          eq(chainTransactions.network, network),
          eq(chainTransactions.status, "pending"),
          or(anyOf(chainTransactions.wallet, chunk), anyOf(chainTransactions.toAddress, chunk)),
        ),
      ),
  ];
  return [...inFlight.map((f) => f.address), ...pending.flatMap((p) => [p.wallet, p.to])];
}

/** The value of the ledger's mined transactions to the addresses (top-ups; a reverted one moved nothing). */
function sentByLedger(db: Db, network: string, chunk: string[], block: bigint) {
  return db
    .select({ address: chainTransactions.toAddress, total: sql<string>`sum(${chainTransactions.value})::text` })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, network),
        anyOf(chainTransactions.toAddress, chunk),
        eq(chainTransactions.status, "mined"),
        lte(chainTransactions.minedBlock, Number(block)),
      ),
    )
    .groupBy(chainTransactions.toAddress);
}

/**
 * What the addresses' own transactions took: value when mined, and the fee paid mined or reverted
 * (a fee the ledger does not know counts 0: the explained balance errs high, so it never invents a payment).
 */
function spentByLedger(db: Db, network: string, chunk: string[], block: bigint) {
  return db
    .select({
      address: chainTransactions.wallet,
      total: sql<string>`sum(case when ${chainTransactions.status} = 'mined' then ${chainTransactions.value} else 0 end + coalesce(${chainTransactions.feePaid}, 0))::text`,
    })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, network),
        anyOf(chainTransactions.wallet, chunk),
        inArray(chainTransactions.status, ["mined", "reverted"]),
        lte(chainTransactions.minedBlock, Number(block)),
      ),
    )
    .groupBy(chainTransactions.wallet);
}

/**
 * BNB that batches swept out of the addresses (the delegate sends the entry's amount as value, in
 * the gas tank's transaction): completed entries whose batch's mined copy is at or below `block`.
 */
function sweptInBatches(db: Db, network: string, chunk: string[], block: bigint) {
  const own = alias(chainTransactions, "own");
  const mined = alias(chainTransactions, "mined");
  return db
    .select({ address: forwards.fromAddress, total: sql<string>`sum(${forwards.amount})::text` })
    .from(forwards)
    .innerJoin(sweepBatches, eq(sweepBatches.id, forwards.batchId))
    .innerJoin(own, eq(own.id, sweepBatches.chainTxId))
    .innerJoin(
      mined,
      and(eq(mined.network, own.network), eq(mined.wallet, own.wallet), eq(mined.nonce, own.nonce), eq(mined.status, "mined")),
    )
    .where(
      and(
        eq(forwards.network, network),
        anyOf(forwards.fromAddress, chunk),
        inArray(forwards.tokenContract, [...NATIVE_SPELLINGS]),
        eq(forwards.status, "completed"),
        isNotNull(forwards.batchId),
        lte(mined.minedBlock, Number(block)),
      ),
    )
    .groupBy(forwards.fromAddress);
}
