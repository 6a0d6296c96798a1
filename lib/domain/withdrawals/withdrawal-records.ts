/**
 * The one writer of a withdrawal's status. The confirmer finds a fact; withdrawal-state.ts
 * decides what it does; this writes that decision as a compare-and-set on `submitted`, with the
 * decision's webhook events, the release of the request's idempotency key and whatever the
 * injected `onSettled` does (a refund following its payout) in the same transaction. Only this
 * file writes withdrawals.status (tests/unit/status-writes.test.ts holds that); lib/domain/payouts
 * inserts the row, `submitted` by default. Both move the counters (withdrawal-tallies.ts) with it.
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import type { ChainTransaction, Withdrawal } from "../../db/schema";
import { withdrawals } from "../../db/schema";
import { releaseIdempotency } from "../idempotency/idempotency";
import { tallyWithdrawalMove } from "../payouts/withdrawal-tallies";
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
  options: { winner?: ChainTransaction | null; onSettled?: OnSettled; now?: Date } = {},
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
        updatedAt: now,
      })
      .where(and(eq(withdrawals.id, withdrawal.id), eq(withdrawals.status, "submitted")))
      .returning();
    if (!done) return null;
    // The compare-and-set above held it submitted until now, whatever the caller read.
    await tallyWithdrawalMove(tx, { ...done, status: "submitted" }, done);
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
