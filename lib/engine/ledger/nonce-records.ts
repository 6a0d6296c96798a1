/**
 * The one writer of a ledger row's state. The settler and the re-reads bring what the chain said;
 * decide.ts decides what it means for the nonce; this writes that decision, each write guarded by
 * the statuses it may move from (pending, or replaced by none for a receipt a lagging node hid),
 * so a settler that lost a race to another changes nothing. Only this file writes
 * chain_transactions.status (tests/unit/status-writes.test.ts holds that); a row starts pending
 * (record.ts).
 */
import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ChainTransaction, chainTransactions } from "../../db/schema/engine";
import { REFUSED_PREFIX } from "./broadcast";
import { type NonceDecision, type NonceState, nextReceiptRecheck } from "./decide";
import type { LandedReceipt } from "./finality";

/** What the decider needs of a nonce: its open rows (oldest first), the newest of them as it is now, every row of it. */
export function nonceStateOf(open: ChainTransaction[], newest: ChainTransaction, rows: ChainTransaction[]): NonceState {
  const seen = open.find((r) => r.nonceUsedSeenBlock !== null)?.nonceUsedSeenBlock;
  return {
    nonce: newest.nonce,
    nonceUsedSeenBlock: seen === undefined || seen === null ? null : BigInt(seen),
    nonceUsedSince: open.find((r) => r.nonceUsedSeenAt !== null)?.nonceUsedSeenAt ?? null,
    newest: { kind: newest.kind, createdAt: newest.createdAt, refusedForGood: newest.broadcastError?.startsWith(REFUSED_PREFIX) ?? false },
    replacements: rows.filter((r) => r.replacesId !== null).length,
    replaceable: newest.walletRole !== "deposit",
  };
}

/**
 * Writes what the settler decided about the nonce of `open` (its rows still pending). A stall's
 * action writes nothing here: a replacement is a new row (replace.ts), a stall a mark (watchdog.ts).
 */
export async function applyNonceDecision(
  db: Db,
  open: ChainTransaction[],
  decision: NonceDecision,
  landed: LandedReceipt | null,
  now: Date,
): Promise<void> {
  const openIds = open.map((r) => r.id);
  switch (decision.outcome) {
    case "mined":
      if (!landed) throw new Error("a nonce decided mined without the receipt it was decided from");
      return settleMined(db, openIds, landed, now);
    case "taken-by-other":
      await db
        .update(chainTransactions)
        .set(settledColumns({ as: "taken-by-other" }, now))
        .where(and(inArray(chainTransactions.id, openIds), eq(chainTransactions.status, "pending")));
      return;
    case "included":
      return rememberReceipt(db, open, landed, now);
    case "open": {
      await rememberReceipt(db, open, landed, now);
      const seenBlock = decision.nonceUsedSeenBlock === null ? null : Number(decision.nonceUsedSeenBlock);
      const since = decision.nonceUsedSince;
      if (open.some((r) => r.nonceUsedSeenBlock !== seenBlock || r.nonceUsedSeenAt?.getTime() !== since?.getTime())) {
        await db
          .update(chainTransactions)
          .set({ nonceUsedSeenBlock: seenBlock, nonceUsedSeenAt: since, updatedAt: now })
          .where(inArray(chainTransactions.id, openIds));
      }
      return;
    }
    default:
      return;
  }
}

/** Rows recorded by another process while their nonce was being settled (late replacements): they can never be mined. */
export async function replaceByWinner(db: Db, ref: { network: string; wallet: string; nonce: number }, winnerId: number, now: Date) {
  await db
    .update(chainTransactions)
    .set(settledColumns({ as: "recorded-late", winnerId }, now))
    .where(
      and(
        eq(chainTransactions.network, ref.network),
        eq(chainTransactions.wallet, ref.wallet),
        eq(chainTransactions.nonce, ref.nonce),
        eq(chainTransactions.status, "pending"),
      ),
    );
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
        ...settledColumns({ as: "winner", success }, now),
        minedBlock: Number(receipt.blockNumber),
        receiptBlockHash: receipt.blockHash,
        gasUsed: receipt.gasUsed,
        feePaid: receipt.gasUsed * receipt.effectiveGasPrice,
      })
      .where(and(eq(chainTransactions.id, row.id), unsettledOrTakenByOther));
    const others = rowIds.filter((id) => id !== row.id);
    if (others.length > 0) {
      await tx
        .update(chainTransactions)
        .set(settledColumns({ as: "replaced", winnerId: row.id }, now))
        .where(and(inArray(chainTransactions.id, others), unsettledOrTakenByOther));
    }
  });
  if (!success)
    log.warn(
      { network: row.network, wallet: row.wallet, nonce: row.nonce, txHash: row.txHash },
      "a transaction of the ledger reverted on chain",
    );
}

type Settled =
  /** Its receipt is final: mined (ok or reverted). */
  | { as: "winner"; success: boolean }
  /** Another row of its nonce won. */
  | { as: "replaced"; winnerId: number }
  /** Recorded by another process while its nonce, already won, was being settled: it can never be mined. */
  | { as: "recorded-late"; winnerId: number }
  /** Its nonce went to a transaction outside the ledger. */
  | { as: "taken-by-other" };

/** How a row the decision settles is written: its status, what replaced it, and whether its receipts are read again. */
function settledColumns(settled: Settled, now: Date): Partial<typeof chainTransactions.$inferInsert> {
  const settledNow = { settledAt: now, stuckSince: null, updatedAt: now };
  switch (settled.as) {
    case "winner":
      return { ...settledNow, status: settled.success ? "mined" : "reverted", replacedById: null, receiptRecheckAt: null };
    case "replaced":
      return { ...settledNow, status: "replaced", replacedById: settled.winnerId, receiptRecheckAt: null };
    case "recorded-late":
      return { ...settledNow, status: "replaced", replacedById: settled.winnerId };
    case "taken-by-other":
      // A receipts node behind may have hidden ours: read them again for hours (recheck.ts).
      return { ...settledNow, status: "replaced", replacedById: null, receiptRecheckAt: nextReceiptRecheck(now, now) };
  }
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
