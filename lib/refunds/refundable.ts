/**
 * How much of a payment can still be refunded, and how much a refund without an amount returns.
 * Pure: the callers read the session and its active refunds under the session's row lock.
 */

import type { SessionStatus } from "../db/schema";

export interface RefundBasis {
  status: SessionStatus;
  /** What the session asked for. */
  amount: bigint;
  /** Counted transfers (in time). */
  receivedAmount: bigint;
  /** Transfers of the session's token after it expired or was cancelled. */
  lateAmount: bigint;
  /** Sum of its refunds that are waiting for an address, sending or completed. */
  refunded: bigint;
}

export type RefundAmounts =
  | { ok: true; refundable: bigint; byDefault: bigint }
  | { ok: false; reason: "pending" | "nothing-received" | "all-refunded" };

/**
 * Everything that arrived may go back, never more: received + late − refunded. Without an
 * amount a refund returns what the merchant did not sell for — the overpaid part and the late
 * transfers of a completed payment, everything of an expired or cancelled one — and when there
 * is no such part (a dispute over an exact payment), everything that is left.
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
  return { ok: true, refundable, byDefault: unsoldLeft > 0n ? unsoldLeft : refundable };
}

export const REFUND_REFUSALS: Record<Exclude<RefundAmounts, { ok: true }>["reason"], string> = {
  pending: "the payment is still pending: cancel it first, or wait until it completes or expires",
  "nothing-received": "nothing arrived for this payment: there is nothing to refund",
  "all-refunded": "everything this payment received is already refunded (or waiting to be claimed)",
};
