/**
 * What the gateway tells a merchant: the event types and the shape every event has, whatever
 * channel carries it (a webhook today; e-mail next, docs/design.md §28). Events arrive ready-made:
 * the area that changes a record writes its event, in the transaction that changes it.
 */

export const EVENT_TYPES = [
  "payment.completed",
  "payment.partial",
  "payment.expired",
  "payment.cancelled",
  "payment.late",
  "withdrawal.completed",
  "withdrawal.failed",
  "refund.created",
  "refund.completed",
  "refund.failed",
  "domain.payout_changed",
  "payout.completed",
  "payout.failed",
  "payout_batch.completed",
  "approval.requested",
  "approval.approved",
  "approval.rejected",
  "ping",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NotificationEvent {
  /** The merchant's site the event belongs to; null: an account-wide event, which no domain channel carries. */
  domainId: number | null;
  type: EventType;
  /** Events with the same key reach a recipient in the order they were written (one per session). */
  orderKey: string;
  data: Record<string, unknown>;
}
