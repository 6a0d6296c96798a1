/**
 * A withdrawal's state machine as one pure decider: (state, fact, now) → (next state, events).
 * Every write of a withdrawal's status goes through it (withdrawal-records.ts applies what it
 * decides, as a compare-and-set on `submitted`); the confirmer only finds facts — how the
 * ledger settled the withdrawal's nonce (docs/design.md §12, §17).
 *
 *   (recorded by lib/domain/transfers) ──▶ submitted ──nonce settled by the withdrawal (or its re-priced copy), confirmed, success──▶ completed
 *                                  submitted ──… by the withdrawal, confirmed, reverted──▶ failed (nothing sent)
 *                                  submitted ──… by the 0-value cancel that filled its nonce, confirmed──▶ failed (nothing sent)
 *                                  submitted ──nonce open | winner not confirmed yet──▶ submitted
 *                                  submitted ──nonce taken by a transaction the service never signed──▶ submitted, for the operator
 *
 * Above the account's approval threshold (lib/domain/approval-requests) it is inserted first, unsigned:
 *   awaiting_approval ──approved (its transaction signed and recorded in the same transaction)──▶ submitted
 *   awaiting_approval ──refused at approval (the wallet cannot pay it now…)──▶ failed (nothing sent)
 *   awaiting_approval ──rejected | expired──▶ rejected (nothing sent; approval.rejected, no withdrawal.* event)
 *
 * A nonce taken by a transaction the service never signed proves nothing about the tokens: the
 * withdrawal stays submitted for the operator. Only a failure releases the request's
 * Idempotency-Key, so a retry can never send twice.
 */
import type { Withdrawal } from "../../db/schema";

export type NonceFacts =
  | { state: "open" }
  | { state: "taken-by-other" }
  /** `confirmed`: the winner's block is confirmed as the network counts it (lib/engine/chain/confirmations.ts). */
  | { state: "settled"; by: "withdrawal" | "cancel"; success: boolean; confirmed: boolean };

export interface WithdrawalFacts {
  nonce: NonceFacts;
  /** What the node said when it refused the withdrawal's bytes, if it did. */
  broadcastError: string | null;
}

/** What the ledger says of the withdrawal's nonce, or what a second member decided of a waiting one. */
export type WithdrawalFact =
  | ({ kind: "nonce" } & WithdrawalFacts)
  | { kind: "approved" }
  | { kind: "refused-at-approval"; reason: string }
  | { kind: "rejected"; reason: string };

/** What the decider needs of a withdrawal row. */
export type WithdrawalState = Pick<Withdrawal, "status">;

export type WithdrawalEvent = "withdrawal.completed" | "withdrawal.failed";

export type WithdrawalDecision =
  | { accepted: false; why: string; needsOperator?: true }
  | {
      accepted: true;
      next: { status: "submitted" | "completed" | "failed" | "rejected"; failureReason: string | null; confirmedAt: Date | null };
      events: WithdrawalEvent[];
      /** Nothing was, or can still be, sent: the request that made it may run again with its key. */
      releasesKey: boolean;
    };

export type Settlement = { status: "submitted"; needsOperator?: true } | { status: "completed" } | { status: "failed"; reason: string };

export function decideWithdrawal(state: WithdrawalState, fact: WithdrawalFact, now: Date): WithdrawalDecision {
  if (fact.kind !== "nonce") return decideApprovalOutcome(state, fact);
  if (state.status !== "submitted") return { accepted: false, why: `already ${state.status}` };
  const settlement = settleWithdrawal(fact);
  if (settlement.status === "submitted") {
    return settlement.needsOperator
      ? { accepted: false, why: "its nonce was used by a transaction the service did not sign", needsOperator: true }
      : { accepted: false, why: "its nonce is not settled and confirmed yet" };
  }
  const failed = settlement.status === "failed";
  return {
    accepted: true,
    next: { status: settlement.status, failureReason: failed ? settlement.reason : null, confirmedAt: failed ? null : now },
    events: [`withdrawal.${settlement.status}`],
    releasesKey: releasesIdempotencyKey(settlement),
  };
}

/** Where the nonce's settlement leaves the withdrawal (the decider's arithmetic, also table-tested on its own). */
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

/** The webhook event a settlement makes, if it is final (docs/design.md §15). */
export function withdrawalEvent(settlement: Settlement): WithdrawalEvent | null {
  return settlement.status === "submitted" ? null : `withdrawal.${settlement.status}`;
}

/** A waiting withdrawal's decision: sent on (submitted), failed (refused when approved) or rejected; the key is free unless it is sent. */
function decideApprovalOutcome(state: WithdrawalState, fact: Exclude<WithdrawalFact, { kind: "nonce" }>): WithdrawalDecision {
  if (state.status !== "awaiting_approval") return { accepted: false, why: `${state.status}, not awaiting approval` };
  if (fact.kind === "approved")
    return { accepted: true, next: { status: "submitted", failureReason: null, confirmedAt: null }, events: [], releasesKey: false };
  if (fact.kind === "refused-at-approval")
    return {
      accepted: true,
      next: { status: "failed", failureReason: fact.reason.slice(0, 500), confirmedAt: null },
      events: ["withdrawal.failed"],
      releasesKey: true,
    };
  return {
    accepted: true,
    next: { status: "rejected", failureReason: fact.reason.slice(0, 500), confirmedAt: null },
    events: [],
    releasesKey: true,
  };
}
