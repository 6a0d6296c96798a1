/**
 * The webhook events (lib/domain/notifications/events.ts EVENT_TYPES) as zod schemas: one per
 * family, each `{type, timestamp, data}` with `type` the family's event names, and their union
 * `WebhookEvent`, discriminated on `type`. `data` is built from the API's own response schemas where
 * the event sends the API's view (a session's status, a withdrawal, a refund, a payout item or
 * batch), plus what the event adds to route it. tests/integration/webhook-event-schemas.test.ts
 * writes every event type through the code that sends it and parses each payload here, strictly.
 */

import { z } from "zod";
import { APPROVAL_KINDS, APPROVAL_STATUSES } from "../../db/schema";
import type { EventType } from "../../domain/notifications/events";
import { paymentStatusSchema } from "../../domain/payments/schemas";
import { payoutBatchViewSchema, payoutItemViewSchema } from "../../domain/payouts/schemas";
import { refundSchema } from "../../domain/refunds/schemas";
import { withdrawalSchema } from "../../domain/withdrawals/schemas";
import { approvalContentShape } from "./approval-paths";

const metadata = z
  .record(z.string(), z.unknown())
  .nullable()
  .meta({ description: "The `metadata` you gave when creating the payment (null: none)." });
const domainId = z.number().int().meta({ description: "The domain whose webhook endpoint this is." });

/** `{type, timestamp, data}`: the body of every event. */
function eventSchema<const T extends readonly [EventType, ...EventType[]], D extends z.ZodType>(
  id: string,
  types: T,
  data: D,
  what: string,
) {
  return z
    .object({
      type: z.enum(types),
      timestamp: z
        .string()
        .meta({ description: "When the event was written (ISO 8601, UTC); also the webhook-timestamp header, in seconds." }),
      data,
    })
    .meta({ id, description: what });
}

export const PAYMENT_EVENTS = ["payment.completed", "payment.partial", "payment.expired", "payment.cancelled", "payment.late"] as const;
export const WITHDRAWAL_EVENTS = ["withdrawal.completed", "withdrawal.failed"] as const;
export const REFUND_EVENTS = ["refund.created", "refund.completed", "refund.failed"] as const;
export const DOMAIN_EVENTS = ["domain.payout_changed"] as const;
export const PAYOUT_EVENTS = ["payout.completed", "payout.failed"] as const;
export const PAYOUT_BATCH_EVENTS = ["payout_batch.completed"] as const;
export const APPROVAL_EVENTS = ["approval.requested", "approval.approved", "approval.rejected"] as const;
export const PING_EVENTS = ["ping"] as const;

export const paymentEventSchema = eventSchema(
  "PaymentEvent",
  PAYMENT_EVENTS,
  paymentStatusSchema.extend({ network: z.string(), metadata, domainId }).meta({ id: "PaymentEventData" }),
  "A payment session changed: `data` is its status view (GET /api/v1/payment/{sessionId}/status) plus network, metadata and domainId.",
);

export const withdrawalEventSchema = eventSchema(
  "WithdrawalEvent",
  WITHDRAWAL_EVENTS,
  withdrawalSchema.extend({ network: z.string() }).meta({ id: "WithdrawalEventData" }),
  "A withdrawal settled on chain: `data` is the withdrawal (GET /api/v1/withdrawal/{withdrawalId}) plus network. A refund's payout has its refundId set.",
);

export const refundEventSchema = eventSchema(
  "RefundEvent",
  REFUND_EVENTS,
  refundSchema
    .extend({ orderId: z.string().nullable().meta({ description: "The payment's orderId." }), metadata, domainId })
    .meta({ id: "RefundEventData" }),
  "A refund was created, arrived or could not be sent: `data` is the refund (GET /api/v1/refund/{refundId}) plus the payment's orderId, metadata and domainId.",
);

export const domainEventSchema = eventSchema(
  "DomainPayoutChangedEvent",
  DOMAIN_EVENTS,
  z
    .object({
      domainId,
      domain: z.string().meta({ description: "The domain's origin, e.g. https://shop.example.com." }),
      status: z.enum(["pending", "applied", "cancelled"]).meta({
        description: "pending: requested, takes effect at effectiveAt; applied: in force; cancelled: dropped before its date.",
      }),
      payoutAddress: z.string().nullable().meta({ description: "The new payout address (null: the withdrawal wallet)." }),
      previousPayoutAddress: z.string().nullable(),
      effectiveAt: z.string().meta({ description: "When the change takes (or took) effect, ISO 8601." }),
    })
    .meta({ id: "DomainPayoutChangedEventData" }),
  "A domain's payout address change was requested, took effect or was cancelled.",
);

export const payoutEventSchema = eventSchema(
  "PayoutEvent",
  PAYOUT_EVENTS,
  payoutItemViewSchema
    .extend({ batchId: z.string(), domainId, network: z.string(), token: z.string().meta({ description: "Token symbol." }) })
    .meta({ id: "PayoutEventData" }),
  "One item of a payout batch settled: `data` is the item (as in GET /api/v1/payouts/{batchId}) plus batchId, domainId, network and token.",
);

export const payoutBatchEventSchema = eventSchema(
  "PayoutBatchEvent",
  PAYOUT_BATCH_EVENTS,
  payoutBatchViewSchema.omit({ items: true }).meta({ id: "PayoutBatchEventData" }),
  "Every item of a payout batch is final: `data` is the batch without its items (status completed, partially_failed or failed).",
);

export const approvalEventSchema = eventSchema(
  "ApprovalEvent",
  APPROVAL_EVENTS,
  z
    .object({
      approvalId: z.string().meta({ description: "apr_ + 24 hex characters." }),
      kind: z.enum(APPROVAL_KINDS),
      subjectId: z.string().meta({ description: "The withdrawalId, refundId or payout batchId (by kind)." }),
      amount: z.string(),
      token: z.string().meta({ description: "Token symbol." }),
      status: z.enum(APPROVAL_STATUSES),
      reason: z.string().nullable(),
      expiresAt: z.string(),
      decidedBy: z.number().int().nullable().meta({ description: "The user id of the member who approved or rejected it." }),
      decidedAt: z.string().nullable(),
      ...approvalContentShape,
    })
    .meta({ id: "ApprovalEventData" }),
  "Money out above the account's threshold waits for a second member, was approved (and is being sent), or was rejected or expired.",
);

export const pingEventSchema = eventSchema(
  "PingEvent",
  PING_EVENTS,
  z.object({ domainId, domain: z.string(), message: z.string() }).meta({ id: "PingEventData" }),
  "A test event (POST /api/user/domains/{id}/webhook-test).",
);

export const WEBHOOK_FAMILIES = [
  paymentEventSchema,
  withdrawalEventSchema,
  refundEventSchema,
  domainEventSchema,
  payoutEventSchema,
  payoutBatchEventSchema,
  approvalEventSchema,
  pingEventSchema,
] as const;

export const webhookEventSchema = z.discriminatedUnion("type", WEBHOOK_FAMILIES).meta({
  id: "WebhookEvent",
  description: "Any event BSC Pay sends, told apart by `type`.",
});
export type WebhookEvent = z.output<typeof webhookEventSchema>;

/** The family schema of one event type. */
export function familyOf(type: EventType): (typeof WEBHOOK_FAMILIES)[number] {
  const family = WEBHOOK_FAMILIES.find((schema) => (schema.shape.type.options as readonly string[]).includes(type));
  if (!family) throw new Error(`no webhook schema describes ${type}`);
  return family;
}
