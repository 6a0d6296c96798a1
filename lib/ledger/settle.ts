import { and, asc, eq, inArray } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { publicClientFor } from "../chain/networks";
import { receiptOf } from "../chain/transactions";
import type { Db } from "../db";
import { type ChainTransaction, chainTransactions } from "../db/schema";
import { log } from "../log";
import { broadcastRecorded } from "./broadcast";
import { decideNonce } from "./decide";

/**
 * How one nonce of one wallet stands, for every kind of transaction (DESIGN.md §17):
 *   settled          one row of the nonce is mined (ok or reverted): `winner`; the others are replaced
 *   taken-by-other   the nonce went to a transaction outside the ledger: nothing of ours was mined
 *   open             not decided yet; the newest row's bytes were sent again
 */
export type NonceOutcome =
  | { state: "settled"; winner: ChainTransaction; rows: ChainTransaction[] }
  | { state: "taken-by-other"; rows: ChainTransaction[] }
  | { state: "open"; atWalletNext: boolean; newest: ChainTransaction; rows: ChainTransaction[] };

export interface NonceRef {
  network: string;
  wallet: string;
  nonce: number;
}

/** The rows of a nonce, oldest first. */
export async function nonceRows(db: Db, ref: NonceRef): Promise<ChainTransaction[]> {
  return db
    .select()
    .from(chainTransactions)
    .where(
      and(eq(chainTransactions.network, ref.network), eq(chainTransactions.wallet, ref.wallet), eq(chainTransactions.nonce, ref.nonce)),
    )
    .orderBy(asc(chainTransactions.id));
}

/** What the ledger already knows, without asking the chain. */
export function knownOutcome(rows: ChainTransaction[]): NonceOutcome | null {
  const winner = rows.find((r) => r.status === "mined" || r.status === "reverted");
  if (winner) return { state: "settled", winner, rows };
  if (rows.length > 0 && rows.every((r) => r.status === "replaced")) return { state: "taken-by-other", rows };
  return null;
}

/** Reads the chain for a nonce, records what it decides, and re-sends the newest open row's bytes. */
export async function settleNonce(db: Db, ref: NonceRef, options: { rebroadcast?: boolean } = {}): Promise<NonceOutcome> {
  const rows = await nonceRows(db, ref);
  const known = knownOutcome(rows);
  if (known?.state === "settled" && rows.some((r) => r.status === "pending")) {
    // A replacement recorded by another process while this nonce was being settled: it can never be mined.
    await db
      .update(chainTransactions)
      .set({ status: "replaced", replacedById: known.winner.id, settledAt: new Date(), stuckSince: null, updatedAt: new Date() })
      .where(
        and(
          eq(chainTransactions.network, ref.network),
          eq(chainTransactions.wallet, ref.wallet),
          eq(chainTransactions.nonce, ref.nonce),
          eq(chainTransactions.status, "pending"),
        ),
      );
    // biome-ignore lint/style/noNonNullAssertion: `known` is settled: its winner is mined or reverted, a status no row leaves, so the rows read again still have it
    return knownOutcome(await nonceRows(db, ref))!;
  }
  if (known) return known;
  // No winner and not every row replaced: some row is still pending, so `open` is empty only when there are no rows.
  const open = rows.filter((r) => r.status === "pending");
  const newest = open.at(-1);
  if (!newest) throw new Error(`no ledger row for nonce ${ref.nonce} of ${ref.wallet} on ${ref.network}`);
  const client = publicClientFor(ref.network);
  const checked = await Promise.all(open.map(async (row) => ({ row, receipt: await receiptOf(client, row.txHash as Hex) })));
  const landed = checked.find((c) => c.receipt !== null);
  const receipt = landed?.receipt ?? null;
  let pinnedBlock = 0n;
  let countAtPinned = 0;
  if (!receipt) {
    pinnedBlock = await client.getBlockNumber({ cacheTime: 0 });
    countAtPinned = await client.getTransactionCount({ address: ref.wallet as Address, blockNumber: pinnedBlock });
  }
  const seen = open.find((r) => r.nonceUsedSeenBlock !== null)?.nonceUsedSeenBlock;
  const decision = decideNonce({
    nonce: ref.nonce,
    receipt: landed?.receipt ? { rowId: landed.row.id, success: landed.receipt.status === "success" } : null,
    pinnedBlock,
    countAtPinned,
    nonceUsedSeenBlock: seen === undefined || seen === null ? null : BigInt(seen),
  });
  const now = new Date();
  const openIds = open.map((r) => r.id);

  if (decision.outcome === "mined") {
    // biome-ignore lint/style/noNonNullAssertion: decideNonce answers "mined" only when it was given a receipt
    const mined = receipt!;
    await db.transaction(async (tx) => {
      await tx
        .update(chainTransactions)
        .set({
          status: decision.success ? "mined" : "reverted",
          minedBlock: Number(mined.blockNumber),
          gasUsed: mined.gasUsed,
          feePaid: mined.gasUsed * mined.effectiveGasPrice,
          settledAt: now,
          stuckSince: null,
          updatedAt: now,
        })
        .where(and(eq(chainTransactions.id, decision.rowId), eq(chainTransactions.status, "pending")));
      const others = openIds.filter((id) => id !== decision.rowId);
      if (others.length > 0) {
        await tx
          .update(chainTransactions)
          .set({ status: "replaced", replacedById: decision.rowId, settledAt: now, stuckSince: null, updatedAt: now })
          .where(and(inArray(chainTransactions.id, others), eq(chainTransactions.status, "pending")));
      }
    });
    if (!decision.success)
      log.warn(
        { network: ref.network, wallet: ref.wallet, nonce: ref.nonce, txHash: landed?.row.txHash },
        "a transaction of the ledger reverted on chain",
      );
    // biome-ignore lint/style/noNonNullAssertion: the transaction above made decision.rowId mined or reverted, or another settler had settled the nonce first: either way its rows have a winner
    return knownOutcome(await nonceRows(db, ref))!;
  }
  if (decision.outcome === "taken-by-other") {
    await db
      .update(chainTransactions)
      .set({ status: "replaced", replacedById: null, settledAt: now, stuckSince: null, updatedAt: now })
      .where(and(inArray(chainTransactions.id, openIds), eq(chainTransactions.status, "pending")));
    log.error(
      { network: ref.network, wallet: ref.wallet, nonce: ref.nonce, blocks: Number(pinnedBlock) },
      "a nonce of a service wallet was used by a transaction the service did not record (was its key used elsewhere?)",
    );
    return knownOutcome(await nonceRows(db, ref)) ?? { state: "taken-by-other", rows };
  }

  const seenBlock = decision.nonceUsedSeenBlock === null ? null : Number(decision.nonceUsedSeenBlock);
  if (open.some((r) => r.nonceUsedSeenBlock !== seenBlock)) {
    await db.update(chainTransactions).set({ nonceUsedSeenBlock: seenBlock, updatedAt: now }).where(inArray(chainTransactions.id, openIds));
  }
  // A nonce already used only waits for its receipt; a free one is sent again — even after a refusal,
  // which another node (or the same one later) may not repeat; the watchdog fills a refused nonce.
  if (options.rebroadcast !== false && decision.nonceUsedSeenBlock === null) {
    await broadcastRecorded(db, newest);
  }
  const [fresh] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, newest.id));
  return { state: "open", atWalletNext: decision.atWalletNext, newest: fresh ?? newest, rows };
}
