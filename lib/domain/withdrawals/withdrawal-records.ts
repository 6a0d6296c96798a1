/**
 * The one writer of a withdrawal's status. The confirmer finds a fact; withdrawal-state.ts
 * decides what it does; this writes that decision as a compare-and-set on the status it decided
 * from (`submitted`, or `awaiting_approval` for a waiting one's approval outcome), with the
 * decision's webhook events, the release of the request's idempotency key and whatever the
 * injected `onSettled` does (a refund following its payout) in the same transaction. Only this
 * file writes withdrawals.status (tests/unit/status-writes.test.ts holds that); lib/domain/transfers
 * inserts the row, `submitted` by default, and `insertAwaitingWithdrawal` one that waits for an
 * approval, unsigned. All move the counters (withdrawal-tallies.ts) with it.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import type { ChainTransaction, Withdrawal } from "../../db/schema";
import { withdrawals } from "../../db/schema";
import { releaseIdempotency } from "../idempotency/idempotency";
import type { SignedTransfer } from "../transfers/record-transfer";
import { tallyWithdrawalMove } from "../transfers/withdrawal-tallies";
import { enqueueWithdrawalEvent } from "./withdrawal-events";
import { decideWithdrawal, type WithdrawalDecision, type WithdrawalFact } from "./withdrawal-state";

/** Told, in the settling transaction, that a withdrawal is final (completed or failed). */
export type OnSettled = (tx: Db, withdrawal: Withdrawal) => Promise<void>;

/** The idempotency scope of POST /withdrawal/send: a failed withdrawal frees its key. */
export const WITHDRAWAL_SCOPE = "withdrawal.send";

/**
 * Decides what `fact` does to `withdrawal` and writes it. `winner`: the ledger row that used the
 * nonce — a re-priced copy did the transfer, and its hash is the one the shop can look up.
 */
export async function applyWithdrawalFact(
  db: Db,
  withdrawal: Withdrawal,
  fact: WithdrawalFact,
  options: {
    winner?: ChainTransaction | null;
    onSettled?: OnSettled;
    now?: Date;
    /** An approved withdrawal's transaction, signed and recorded in the caller's transaction. */
    signed?: SignedTransfer;
  } = {},
): Promise<{ decision: WithdrawalDecision; written: Withdrawal | null }> {
  const now = options.now ?? new Date();
  const decision = decideWithdrawal(withdrawal, fact, now);
  if (!decision.accepted) return { decision, written: null };
  const { winner } = options;
  const written = await db.transaction(async (tx) => {
    const [done] = await tx
      .update(withdrawals)
      .set({
        ...decision.next,
        ...(winner && winner.kind === "withdrawal" ? { txHash: winner.txHash, gasPrice: winner.gasPrice } : {}),
        ...(options.signed && fact.kind === "approved" ? signedColumns(options.signed) : {}),
        updatedAt: now,
      })
      .where(and(eq(withdrawals.id, withdrawal.id), eq(withdrawals.status, withdrawal.status)))
      .returning();
    if (!done) return null;
    // The compare-and-set above held it in the status decided from until now, whatever the caller read.
    await tallyWithdrawalMove(tx, { ...done, status: withdrawal.status }, done);
    for (const event of decision.events) await enqueueWithdrawalEvent(tx, done, event);
    await options.onSettled?.(tx, done);
    if (decision.releasesKey && done.apiKeyId !== null) {
      // Nothing was sent, and the chain says so: the shop may retry the same request with the same key.
      await releaseIdempotency(tx, { owner: { apiKeyId: done.apiKeyId }, scope: WITHDRAWAL_SCOPE, field: "withdrawalId", value: done.id });
    }
    return done;
  });
  return { decision, written };
}

function signedColumns(signed: SignedTransfer) {
  const { nonce, txHash, chainTxId, gasLimit, gasPrice, fromAddress } = signed;
  return { nonce, txHash, chainTxId, gasLimit, gasPrice, fromAddress };
}

/** A withdrawal that waits for a second member: unsigned (no nonce, no ledger row, no gas), counted as awaiting_approval. */
export async function insertAwaitingWithdrawal(
  tx: Db,
  values: Pick<Withdrawal, "userId" | "apiKeyId" | "domainId" | "tokenId" | "network" | "fromAddress" | "toAddress" | "amount">,
  now = new Date(),
): Promise<Withdrawal> {
  const inserted = await tx
    .insert(withdrawals)
    .values({ ...values, id: randomUUID(), status: "awaiting_approval", createdAt: now, updatedAt: now })
    .returning();
  const withdrawal = requireRow(inserted, "insert into withdrawals");
  await tallyWithdrawalMove(tx, null, withdrawal);
  return withdrawal;
}
