/**
 * How much of a payment can still be refunded, and how much a refund without an amount returns.
 * Pure: the callers read the session and its active refunds under the session's row lock.
 */

import type { SessionStatus } from "../../db/schema";

export interface RefundBasis {
  status: SessionStatus;
  /** What the session asked for. */
  amount: bigint;
  /** Counted transfers (in time). */
  receivedAmount: bigint;
  /** Transfers of the session's token after it expired or was cancelled. */
  lateAmount: bigint;
  /** Sum of its active refunds: waiting for an address or for funds, sending or completed. */
  refunded: bigint;
}

export type RefundAmounts =
  /** `byDefault` null: a completed payment with nothing (left) beyond its price — only an explicit amount refunds the price. */
  { ok: true; refundable: bigint; byDefault: bigint | null } | { ok: false; reason: "pending" | "nothing-received" | "all-refunded" };

/**
 * Everything that arrived may go back, never more: received + late − refunded. Without an
 * amount a refund returns what the merchant did not sell for — the overpaid part and the late
 * transfers of a completed payment (less every refund so far), everything of an expired or
 * cancelled one. A completed payment with no such part left has no default: refunding the price
 * (goods sold) takes an explicit amount, so a retried call without an amount gives nothing away.
 */
export function refundAmounts(basis: RefundBasis): RefundAmounts {
  if (basis.status === "pending") return { ok: false, reason: "pending" };
  const arrived = basis.receivedAmount + basis.lateAmount;
  if (arrived === 0n) return { ok: false, reason: "nothing-received" };
  const refundable = arrived - basis.refunded;
  if (refundable <= 0n) return { ok: false, reason: "all-refunded" };
  const overpaid = basis.receivedAmount > basis.amount ? basis.receivedAmount - basis.amount : 0n;
  const unsold = basis.status === "completed" ? overpaid + basis.lateAmount : arrived;
  const unsoldLeft = unsold - basis.refunded;
  return { ok: true, refundable, byDefault: unsoldLeft > 0n ? unsoldLeft : null };
}

/** A refund without an amount when `byDefault` is null. */
export const NO_DEFAULT_REFUND = "nothing was paid beyond the price; give an explicit amount to refund the price";

/** Why nothing of a payment can be refunded, as a reason (docs/design.md §22). */
export type NotRefundableReason = "payment-still-pending" | "payment-nothing-received" | "payment-fully-refunded";

/** Each refusal's reason and its words for API clients. */
export const REFUND_REFUSALS: Record<Exclude<RefundAmounts, { ok: true }>["reason"], { reason: NotRefundableReason; message: string }> = {
  pending: {
    reason: "payment-still-pending",
    message: "the payment is still pending: cancel it first, or wait until it completes or expires",
  },
  "nothing-received": { reason: "payment-nothing-received", message: "nothing arrived for this payment: there is nothing to refund" },
  "all-refunded": {
    reason: "payment-fully-refunded",
    message: "everything this payment received is already refunded (or waiting to be claimed or sent)",
  },
};
