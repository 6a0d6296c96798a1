/**
 * A refund's state machine as one pure decider: (state, fact, now) → (next state, events). Every
 * write of a refund's status goes through it (refund-records.ts applies what it decides, as a
 * compare-and-set on the status it decided from); the callers only find facts.
 *
 *   new ──create (no address)──▶ awaiting_address ──claim──▶ sending ──withdrawal-completed──▶ completed
 *   new ──create (toAddress)──▶ sending                          sending ──withdrawal-failed──▶ failed
 *   awaiting_address ──cancel | expiry──▶ cancelled
 *   awaiting_address ──claim-failed──▶ awaiting_address (the reason kept for the merchant)
 *
 * When the withdrawal wallet lacks the tokens (the payment's forward has not reached it, or it
 * went to an external payout address), the refund waits with its address instead of failing:
 *   new ──create-awaiting-funds (toAddress)──▶ awaiting_funds
 *   awaiting_address ──claim-awaiting-funds──▶ awaiting_funds ──funds-arrived──▶ sending
 *   awaiting_funds ──funds-short──▶ awaiting_funds (why, for the merchant)   awaiting_funds ──cancel──▶ cancelled
 * Above the account's approval threshold (lib/domain/approval-requests) a second member approves it
 * together with its destination — never an amount alone:
 *   new ──create-awaiting-approval (toAddress)──▶ awaiting_approval (nothing sent; no refund.created yet)
 *   new ──create (no address, approvalOnClaim)──▶ awaiting_address ──claim-for-approval──▶ awaiting_approval
 *     (the payer's address, nothing signed; `claim` itself is refused for such a refund)
 *   awaiting_approval ──approved──▶ sending | awaiting_funds (refund.created unless the claim announced it)
 *   awaiting_approval ──refused-at-approval──▶ failed (refund.failed)   awaiting_approval ──rejected──▶ rejected (final)
 * An awaiting_funds refund counts as spoken for (ACTIVE_REFUND_STATUSES) and never expires: it
 * waits until the wallet can pay, or until the merchant cancels it.
 *
 * `now` is the database's clock wherever expiry matters (refund-records.ts reads it with the row):
 * the claim and the expiry must never disagree about whether a claim is still open, or a claim
 * could be sent while another refund already counted its amount as free.
 */
import type { Refund, RefundStatus } from "../../db/schema";

export const CLAIM_EXPIRED = "the claim expired before the payer gave an address";
export const CANCELLED_BY_MERCHANT = "cancelled by the merchant";
const TEXT_LIMIT = 500;

/** What the decider needs of a refund row; null: not recorded yet. */
export type RefundState = Pick<Refund, "status" | "claimExpiresAt" | "toAddress" | "approvalOnClaim">;

export type RefundFact =
  /**
   * The merchant creates it: with an address it is sent at once, without one it waits for the
   * payer's (`approvalOnClaim`: above the approval threshold, that address then goes to approval).
   */
  | { kind: "create"; toAddress: string | null; claimExpiresAt: Date; approvalOnClaim?: boolean }
  /** The payer gave an address on the claim page. */
  | { kind: "claim"; address: string }
  /** The payer gave an address for a refund above the approval threshold: it waits for a second member with it. */
  | { kind: "claim-for-approval"; address: string }
  /** The merchant creates it with an address, but the withdrawal wallet lacks the tokens now: it waits for them. */
  | { kind: "create-awaiting-funds"; toAddress: string; claimExpiresAt: Date; reason: string }
  /** The payer gave an address, but the withdrawal wallet lacks the tokens now: it waits for them, with that address. */
  | { kind: "claim-awaiting-funds"; address: string; reason: string }
  /** Above the approval threshold with the merchant's address: it waits for a second member, who approves that address. */
  | { kind: "create-awaiting-approval"; toAddress: string; claimExpiresAt: Date }
  /** A second member approved it and its address: it is sent (`to`), or waits for the wallet's funds. */
  | { kind: "approved"; to: "sending" | "awaiting_funds"; claimExpiresAt: Date; reason?: string }
  /** Approved, but its payout was refused (not for want of tokens): nothing was sent. */
  | { kind: "refused-at-approval"; reason: string }
  /** Rejected by a member, or its approval expired: final, never sent. */
  | { kind: "rejected"; reason: string }
  /** The wallet can pay now: its withdrawal is being recorded. */
  | { kind: "funds-arrived" }
  /** Checked again and the wallet still cannot pay (why, for the merchant). */
  | { kind: "funds-short"; reason: string }
  /** The payer's claim could not be sent (the network, the merchant's budget, a domain removed): it still waits. */
  | { kind: "claim-failed"; reason: string }
  /** The merchant withdrew an unclaimed refund. */
  | { kind: "cancel" }
  /** Its claim URL's deadline may have passed (decided against `now`). */
  | { kind: "expiry" }
  /** Its withdrawal was mined and confirmed. */
  | { kind: "withdrawal-completed" }
  /** Its withdrawal failed: nothing was sent. */
  | { kind: "withdrawal-failed"; reason: string };

/** The row's new state; fields left undefined stay as they are. */
export interface RefundChange {
  status: RefundStatus;
  toAddress?: string | null;
  addressFrom?: "merchant" | "payer" | null;
  claimExpiresAt?: Date;
  approvalOnClaim?: boolean;
  reason?: string | null;
  completedAt?: Date;
  cancelledAt?: Date;
}

export type RefundEvent = "refund.created" | "refund.completed" | "refund.failed";

export type RefundDecision =
  | { accepted: true; next: RefundChange; events: RefundEvent[] }
  /** The fact does not apply to this state: nothing changes. `expired`: a claim came after the deadline. */
  | { accepted: false; why: string; expired?: true };

export function decideRefund(state: RefundState | null, fact: RefundFact, now: Date): RefundDecision {
  const from = state?.status ?? "new";
  const refuse = (): RefundDecision => ({ accepted: false, why: `${fact.kind} does not apply to a ${from.replace("_", " ")} refund` });
  const to = (next: RefundChange, events: RefundEvent[] = []): RefundDecision => ({ accepted: true, next, events });
  if (fact.kind === "create") {
    if (state !== null) return refuse();
    if (fact.toAddress === null) {
      const approvalOnClaim = fact.approvalOnClaim ?? false;
      return to({ status: "awaiting_address", toAddress: null, addressFrom: null, claimExpiresAt: fact.claimExpiresAt, approvalOnClaim }, [
        "refund.created",
      ]);
    }
    // An address above the threshold is create-awaiting-approval: never sent unapproved.
    if (fact.approvalOnClaim) return refuse();
    return to({ status: "sending", toAddress: fact.toAddress, addressFrom: "merchant", claimExpiresAt: fact.claimExpiresAt }, [
      "refund.created",
    ]);
  }
  if (fact.kind === "create-awaiting-funds") {
    if (state !== null) return refuse();
    return to(
      {
        status: "awaiting_funds",
        toAddress: fact.toAddress,
        addressFrom: "merchant",
        claimExpiresAt: fact.claimExpiresAt,
        reason: clip(fact.reason),
      },
      ["refund.created"],
    );
  }
  if (fact.kind === "create-awaiting-approval") {
    if (state !== null) return refuse();
    return to({ status: "awaiting_approval", toAddress: fact.toAddress, addressFrom: "merchant", claimExpiresAt: fact.claimExpiresAt });
  }
  if (state === null) return refuse();
  if (fact.kind === "approved" || fact.kind === "refused-at-approval" || fact.kind === "rejected") {
    if (state.status !== "awaiting_approval") return refuse();
    if (fact.kind === "rejected") return to({ status: "rejected", reason: clip(fact.reason), cancelledAt: now });
    if (fact.kind === "refused-at-approval") return to({ status: "failed", reason: clip(fact.reason) }, ["refund.failed"]);
    // What is approved is an amount *and* where it goes: a refund without an address was asked for before that rule.
    if (state.toAddress === null) return { accepted: false, why: "approved does not apply to a refund without an address" };
    // A claimed refund announced itself (refund.created) when its claim opened.
    const events: RefundEvent[] = state.approvalOnClaim ? [] : ["refund.created"];
    return to({ status: fact.to, claimExpiresAt: fact.claimExpiresAt, reason: fact.reason ? clip(fact.reason) : null }, events);
  }
  const due = state.claimExpiresAt.getTime() <= now.getTime();
  switch (fact.kind) {
    case "claim":
      if (state.status !== "awaiting_address" || state.approvalOnClaim) return refuse();
      if (due) return { accepted: false, why: "the claim expired", expired: true };
      return to({ status: "sending", toAddress: fact.address, addressFrom: "payer", reason: null });
    case "claim-for-approval":
      if (state.status !== "awaiting_address" || !state.approvalOnClaim) return refuse();
      if (due) return { accepted: false, why: "the claim expired", expired: true };
      return to({ status: "awaiting_approval", toAddress: fact.address, addressFrom: "payer", reason: null });
    case "claim-awaiting-funds":
      if (state.status !== "awaiting_address" || state.approvalOnClaim) return refuse();
      if (due) return { accepted: false, why: "the claim expired", expired: true };
      return to({ status: "awaiting_funds", toAddress: fact.address, addressFrom: "payer", reason: clip(fact.reason) });
    case "funds-arrived":
      return state.status === "awaiting_funds" ? to({ status: "sending", reason: null }) : refuse();
    case "funds-short":
      return state.status === "awaiting_funds" ? to({ status: "awaiting_funds", reason: clip(fact.reason) }) : refuse();
    case "claim-failed":
      return state.status === "awaiting_address"
        ? to({ status: "awaiting_address", reason: clip(`the payer's last claim could not be sent: ${fact.reason}`) })
        : refuse();
    case "cancel":
      return state.status === "awaiting_address" || state.status === "awaiting_funds"
        ? to({ status: "cancelled", reason: CANCELLED_BY_MERCHANT, cancelledAt: now })
        : refuse();
    case "expiry":
      return state.status === "awaiting_address" && due ? to({ status: "cancelled", reason: CLAIM_EXPIRED, cancelledAt: now }) : refuse();
    case "withdrawal-completed":
      return state.status === "sending" ? to({ status: "completed", completedAt: now }, ["refund.completed"]) : refuse();
    case "withdrawal-failed":
      return state.status === "sending" ? to({ status: "failed", reason: clip(fact.reason) }, ["refund.failed"]) : refuse();
  }
}

function clip(text: string): string {
  return text.slice(0, TEXT_LIMIT);
}
