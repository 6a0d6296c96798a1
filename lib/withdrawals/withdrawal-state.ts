/**
 * When a withdrawal is final, as one pure function of what the chain says (DESIGN.md §12): it
 * stays submitted until its nonce is used on chain, and *which* transaction used it decides —
 * the withdrawal itself (completed, or failed if it reverted) or the 0-value filler that replaced
 * a refused broadcast (failed: nothing was sent). Only a final answer releases the request's
 * Idempotency-Key, so a retry can never send twice.
 */
export interface MinedFacts {
  success: boolean;
  confirmations: number;
}

export interface WithdrawalFacts {
  nonce: number;
  /** The wallet's mined transaction count (its next nonce on chain). */
  minedCount: number;
  withdrawal: MinedFacts | null;
  filler: MinedFacts | null;
  hasFiller: boolean;
  requiredConfirmations: number;
  /** What the node said when it refused the broadcast, if it did. */
  broadcastError: string | null;
}

export type Settlement =
  | { status: "submitted"; next: "wait" | "rebroadcast-withdrawal" | "rebroadcast-filler" }
  | { status: "completed" }
  | { status: "failed"; reason: string };

export function settleWithdrawal(facts: WithdrawalFacts): Settlement {
  const required = Math.max(1, facts.requiredConfirmations);
  if (facts.withdrawal) {
    if (facts.withdrawal.confirmations < required) return { status: "submitted", next: "wait" };
    return facts.withdrawal.success ? { status: "completed" } : { status: "failed", reason: "the transfer reverted on chain; the tokens were not sent" };
  }
  if (facts.filler) {
    if (facts.filler.confirmations < required) return { status: "submitted", next: "wait" };
    const why = facts.broadcastError ? `the network refused the transaction (${facts.broadcastError})` : "the transaction was replaced";
    return { status: "failed", reason: `${why}; its nonce was filled by a 0-value transfer, nothing was sent` };
  }
  if (facts.minedCount > facts.nonce) {
    return { status: "failed", reason: "dropped: its nonce was used by another transaction of the wallet; nothing was sent" };
  }
  return { status: "submitted", next: facts.hasFiller ? "rebroadcast-filler" : "rebroadcast-withdrawal" };
}

/** Whether a request's Idempotency-Key may be used again: only once nothing was, or can still be, sent. */
export function releasesIdempotencyKey(settlement: Settlement): boolean {
  return settlement.status === "failed";
}

/** The webhook event a settlement makes, if it is final (DESIGN.md §15). */
export function withdrawalEvent(settlement: Settlement): "withdrawal.completed" | "withdrawal.failed" | null {
  return settlement.status === "submitted" ? null : `withdrawal.${settlement.status}`;
}
