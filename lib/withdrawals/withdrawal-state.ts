/**
 * When a withdrawal is final, as one pure function of how the ledger settled its nonce
 * (DESIGN.md §12, §17): it stays submitted until one of the nonce's transactions has a receipt,
 * and *which* one decides — the withdrawal (or its re-priced copy: the same transfer) completes it,
 * or fails it if it reverted; the 0-value cancel that filled a refused nonce fails it (nothing
 * was sent). A nonce taken by a transaction the service never signed proves nothing about the
 * tokens: the withdrawal stays submitted for the operator. Only a failure releases the request's
 * Idempotency-Key, so a retry can never send twice.
 */

export type NonceFacts =
  | { state: "open" }
  | { state: "taken-by-other" }
  /** `confirmed`: the winner's block is confirmed as the network counts it (lib/chain/confirmations.ts). */
  | { state: "settled"; by: "withdrawal" | "cancel"; success: boolean; confirmed: boolean };

export interface WithdrawalFacts {
  nonce: NonceFacts;
  /** What the node said when it refused the withdrawal's bytes, if it did. */
  broadcastError: string | null;
}

export type Settlement = { status: "submitted"; needsOperator?: true } | { status: "completed" } | { status: "failed"; reason: string };

export function settleWithdrawal(facts: WithdrawalFacts): Settlement {
  const { nonce } = facts;
  if (nonce.state === "open") return { status: "submitted" };
  if (nonce.state === "taken-by-other") return { status: "submitted", needsOperator: true };
  if (!nonce.confirmed) return { status: "submitted" };
  if (nonce.by === "withdrawal") {
    return nonce.success
      ? { status: "completed" }
      : { status: "failed", reason: "the transfer reverted on chain; the tokens were not sent" };
  }
  const why = facts.broadcastError ? `the network refused the transaction (${facts.broadcastError})` : "the transaction was not mined";
  return { status: "failed", reason: `${why}; its nonce was filled by a 0-value transfer, nothing was sent` };
}

/** Whether a request's Idempotency-Key may be used again: only once nothing was, or can still be, sent. */
export function releasesIdempotencyKey(settlement: Settlement): boolean {
  return settlement.status === "failed";
}

/** The webhook event a settlement makes, if it is final (DESIGN.md §15). */
export function withdrawalEvent(settlement: Settlement): "withdrawal.completed" | "withdrawal.failed" | null {
  return settlement.status === "submitted" ? null : `withdrawal.${settlement.status}`;
}
