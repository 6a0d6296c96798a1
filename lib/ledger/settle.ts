import { and, asc, eq, inArray, isNull, or } from "drizzle-orm";
import type { Address } from "viem";
import { publicClientFor, requireNetworkConfig } from "../chain/networks";
import type { Db } from "../db";
import { type ChainTransaction, chainTransactions } from "../db/schema";
import { log } from "../log";
import { broadcastRecorded } from "./broadcast";
import { decideNonce, nextReceiptRecheck } from "./decide";
import { type LandedReceipt, landedReceipt } from "./finality";

/**
 * How one nonce of one wallet stands, for every kind of transaction (DESIGN.md §17):
 *   settled          one row of the nonce is mined (ok or reverted) at the confirmation depth: `winner`;
 *                    the others are replaced. Business records take their outcome from this only.
 *   taken-by-other   the nonce went to a transaction outside the ledger: nothing of ours was mined
 *                    (its receipts are read again for hours: a late one still settles it)
 *   open             not decided yet: the newest row's bytes were sent again, or a receipt waits for depth
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

/**
 * A nonce settled as taken by another whose receipts are still being read again (recheck.ts): a
 * late receipt may yet settle it as ours. Callers that would act on the loss (plan a forward again,
 * give a batch's forwards back) wait instead until the re-reads are over.
 */
export function rereadsPending(outcome: NonceOutcome): boolean {
  return outcome.state === "taken-by-other" && outcome.rows.some((r) => r.receiptRecheckAt !== null);
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
  const landed = await landedReceipt(client, requireNetworkConfig(ref.network).finality, open);
  let pinnedBlock = 0n;
  let countAtPinned = 0;
  if (!landed) {
    pinnedBlock = await client.getBlockNumber({ cacheTime: 0 });
    countAtPinned = await client.getTransactionCount({ address: ref.wallet as Address, blockNumber: pinnedBlock });
  }
  const seen = open.find((r) => r.nonceUsedSeenBlock !== null)?.nonceUsedSeenBlock;
  const now = new Date();
  const decision = decideNonce({
    nonce: ref.nonce,
    receipt: landed ? { rowId: landed.row.id, success: landed.receipt.status === "success", final: landed.final } : null,
    pinnedBlock,
    countAtPinned,
    nonceUsedSeenBlock: seen === undefined || seen === null ? null : BigInt(seen),
    nonceUsedSince: open.find((r) => r.nonceUsedSeenAt !== null)?.nonceUsedSeenAt ?? null,
    now,
  });
  const openIds = open.map((r) => r.id);

  if (decision.outcome === "mined") {
    // biome-ignore lint/style/noNonNullAssertion: decideNonce answers "mined" only when it was given a receipt
    await settleMined(db, openIds, landed!, now);
    // biome-ignore lint/style/noNonNullAssertion: settleMined made the row mined or reverted, or another settler had settled the nonce first: either way its rows have a winner
    return knownOutcome(await nonceRows(db, ref))!;
  }
  if (decision.outcome === "taken-by-other") {
    await db
      .update(chainTransactions)
      .set({
        status: "replaced",
        replacedById: null,
        settledAt: now,
        stuckSince: null,
        // A receipts node behind may have hidden ours: read them again for hours (recheck.ts).
        receiptRecheckAt: nextReceiptRecheck(now, now),
        updatedAt: now,
      })
      .where(and(inArray(chainTransactions.id, openIds), eq(chainTransactions.status, "pending")));
    log.error(
      { network: ref.network, wallet: ref.wallet, nonce: ref.nonce, blocks: Number(pinnedBlock) },
      "a nonce of a service wallet was used by a transaction the service did not record (was its key used elsewhere?); its receipts are read again for a while",
    );
    return knownOutcome(await nonceRows(db, ref)) ?? { state: "taken-by-other", rows };
  }

  await rememberReceipt(db, open, landed, now);
  if (decision.outcome === "included") {
    // Mined but not final: wait for depth; nothing to re-send (a node would answer "nonce too low").
    const [fresh] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, newest.id));
    return { state: "open", atWalletNext: false, newest: fresh ?? newest, rows };
  }
  const seenBlock = decision.nonceUsedSeenBlock === null ? null : Number(decision.nonceUsedSeenBlock);
  if (open.some((r) => r.nonceUsedSeenBlock !== seenBlock || r.nonceUsedSeenAt?.getTime() !== decision.nonceUsedSince?.getTime())) {
    await db
      .update(chainTransactions)
      .set({ nonceUsedSeenBlock: seenBlock, nonceUsedSeenAt: decision.nonceUsedSince, updatedAt: now })
      .where(inArray(chainTransactions.id, openIds));
  }
  // A nonce already used only waits for its receipt; a free one is sent again — even after a refusal,
  // which another node (or the same one later) may not repeat; the watchdog fills a refused nonce.
  if (options.rebroadcast !== false && decision.nonceUsedSeenBlock === null) {
    await broadcastRecorded(db, newest);
  }
  const [fresh] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, newest.id));
  return { state: "open", atWalletNext: decision.atWalletNext, newest: fresh ?? newest, rows };
}

/** A row still open, or settled only as taken by a transaction outside the ledger (never one another row of ours won). */
const unsettledOrTakenByOther = or(
  eq(chainTransactions.status, "pending"),
  and(eq(chainTransactions.status, "replaced"), isNull(chainTransactions.replacedById)),
);

/**
 * Records the final receipt: its row mined or reverted (from pending, or from replaced when a
 * re-read found a receipt a lagging node had hidden), every other row of the nonce replaced by it.
 */
export async function settleMined(db: Db, rowIds: number[], landed: LandedReceipt, now: Date): Promise<void> {
  const { row, receipt } = landed;
  const success = receipt.status === "success";
  await db.transaction(async (tx) => {
    await tx
      .update(chainTransactions)
      .set({
        status: success ? "mined" : "reverted",
        replacedById: null,
        minedBlock: Number(receipt.blockNumber),
        receiptBlockHash: receipt.blockHash,
        receiptRecheckAt: null,
        gasUsed: receipt.gasUsed,
        feePaid: receipt.gasUsed * receipt.effectiveGasPrice,
        settledAt: now,
        stuckSince: null,
        updatedAt: now,
      })
      .where(and(eq(chainTransactions.id, row.id), unsettledOrTakenByOther));
    const others = rowIds.filter((id) => id !== row.id);
    if (others.length > 0) {
      await tx
        .update(chainTransactions)
        .set({ status: "replaced", replacedById: row.id, receiptRecheckAt: null, settledAt: now, stuckSince: null, updatedAt: now })
        .where(and(inArray(chainTransactions.id, others), unsettledOrTakenByOther));
    }
  });
  if (!success)
    log.warn(
      { network: row.network, wallet: row.wallet, nonce: row.nonce, txHash: row.txHash },
      "a transaction of the ledger reverted on chain",
    );
}

/**
 * Keeps the receipt seen on a row not final yet (block hash and number), and forgets one that
 * moved to another block or vanished: a reorganisation put the row back to plain pending.
 */
async function rememberReceipt(db: Db, open: ChainTransaction[], landed: LandedReceipt | null, now: Date): Promise<void> {
  for (const row of open) {
    const hash = landed?.row.id === row.id ? landed.receipt.blockHash : null;
    if (row.receiptBlockHash === hash) continue;
    if (row.receiptBlockHash !== null)
      log.warn(
        { network: row.network, wallet: row.wallet, nonce: row.nonce, txHash: row.txHash, was: row.receiptBlockHash, now: hash },
        "a ledger row's receipt moved or vanished before it was final (a reorganisation): it is pending again",
      );
    await db
      .update(chainTransactions)
      .set({ receiptBlockHash: hash, minedBlock: landed?.row.id === row.id ? Number(landed.receipt.blockNumber) : null, updatedAt: now })
      .where(and(eq(chainTransactions.id, row.id), eq(chainTransactions.status, "pending")));
  }
}
