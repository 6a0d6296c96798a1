/**
 * The `webhooks` section of the OpenAPI document: one entry per event type, each a POST to the
 * domain's webhookUrl with its family's body and an example (docs/api.md "## Webhooks").
 */

import { z } from "zod";
import type { ZodOpenApiOperationObject } from "zod-openapi";
import { EVENT_TYPES, type EventType } from "../../domain/notifications/events";
import { EX, paymentStatusExample, payoutBatchExample, payoutItemExample, refundExample, withdrawalExample } from "./examples";
import { open } from "./shared";
import { tagged } from "./tags";
import { familyOf, type WebhookEvent } from "./webhook-events";

const SIGNING =
  'Signed as Standard Webhooks (https://www.standardwebhooks.com/): `webhook-signature` is `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed with the domain\'s webhookSecret (whsec_…; during a rotation two signatures, space-separated). Verify it and the timestamp (5 minutes) on the raw body before parsing; deduplicate on webhook-id (a retry sends the same one). Answer 2xx within 10 s; anything else is retried (at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h).';

const headers = z.object({
  "webhook-id": z
    .string()
    .meta({ description: "The event's id (msg_…): the same on every retry.", example: "msg_Hc8Wm2Rt6Yp0Lq4Kx7Vb3Nz9" }),
  "webhook-timestamp": z.string().meta({ description: "Unix seconds when this attempt was signed.", example: "1795874742" }),
  "webhook-signature": z.string().meta({
    description: "v1,<base64 signature>, one per signing secret, space-separated.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

const WHEN: Record<EventType, string> = {
  "payment.completed": "The session is paid (also an expired or cancelled one paid in time).",
  "payment.partial": "Money arrived that counts; the session is still short.",
  "payment.expired": "The session ended unpaid at its expiry.",
  "payment.cancelled": "The session was cancelled unpaid.",
  "payment.late": "A deposit after the session ended (expired, cancelled, or completed: more money, overpaid).",
  "withdrawal.completed": "A withdrawal (or a refund's payout) was mined.",
  "withdrawal.failed": "A withdrawal (or a refund's payout) failed on chain.",
  "refund.created": "A refund was created: waiting for the payer's address, awaiting funds, or sending.",
  "refund.completed": "A refund arrived.",
  "refund.failed": "A refund could not be sent.",
  "domain.payout_changed": "A payout address change was requested, took effect or was cancelled.",
  "payout.completed": "One item of a payout batch was paid.",
  "payout.failed": "One item of a payout batch failed.",
  "payout_batch.completed": "Every item of a payout batch is final.",
  "approval.requested": "Money out above the account's threshold waits for a second member.",
  "approval.approved": "A waiting request was approved and is being sent.",
  "approval.rejected": "A waiting request was rejected, or expired (status expired).",
  ping: "A test event from the dashboard or POST /api/user/domains/{id}/webhook-test.",
};

const paymentData = { ...paymentStatusExample, network: "bsc", metadata: { cartId: "c_7781" }, domainId: 3 };
const refundData = { ...refundExample, orderId: "ORD-10042", metadata: { cartId: "c_7781" }, domainId: 3 };
const { items: _items, ...batchSummary } = payoutBatchExample;
const itemData = { ...payoutItemExample, batchId: EX.batchId, domainId: 3, network: "bsc", token: "USDT" };
const approvalData = {
  approvalId: EX.approvalId,
  kind: "withdrawal" as const,
  subjectId: EX.withdrawalId,
  amount: "5000",
  token: "USDT",
  status: "awaiting_approval" as const,
  reason: null,
  expiresAt: "2026-11-30T09:12:30.000Z",
  decidedBy: null,
  decidedAt: null,
  toAddress: "0x1111111111111111111111111111111111111111",
  payment: null,
  items: null,
  contentHash: "9f2c4e1a7b3d5c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6",
};
const decided = { decidedBy: 8, decidedAt: "2026-11-28T10:02:00.000Z" };
const pending = { status: "pending" as const, receivedAmount: null, txHash: null };

/** `data` of the events of type T. */
type DataOf<T extends EventType> = WebhookEvent extends infer E
  ? E extends { type: infer U; data: infer D }
    ? T extends U
      ? D
      : never
    : never
  : never;

/** An example body of each event type (typed by its family, so each matches its schema). */
const EXAMPLES: { [T in EventType]: DataOf<T> } = {
  "payment.completed": paymentData,
  "payment.partial": { ...paymentData, status: "pending", receivedAmount: "4" },
  "payment.expired": { ...paymentData, ...pending, status: "expired" },
  "payment.cancelled": { ...paymentData, ...pending, status: "cancelled" },
  "payment.late": { ...paymentData, overpaid: true, late: true, lateAmount: "1.5" },
  "withdrawal.completed": { ...withdrawalExample, status: "completed", confirmedAt: "2026-11-28T09:12:41.000Z", network: "bsc" },
  "withdrawal.failed": { ...withdrawalExample, status: "failed", failureReason: "transaction reverted", network: "bsc" },
  "refund.created": refundData,
  "refund.completed": { ...refundData, status: "completed", completedAt: "2026-11-28T09:12:41.000Z" },
  "refund.failed": { ...refundData, status: "failed", reason: "transaction reverted", completedAt: "2026-11-28T09:12:41.000Z" },
  "domain.payout_changed": {
    domainId: 3,
    domain: EX.shop,
    status: "pending",
    payoutAddress: EX.recipient,
    previousPayoutAddress: EX.payoutAddress,
    effectiveAt: "2026-11-29T09:12:30.000Z",
  },
  "payout.completed": itemData,
  "payout.failed": { ...itemData, status: "failed", txHash: null, failureReason: "the token refused this recipient" },
  "payout_batch.completed": batchSummary,
  "approval.requested": approvalData,
  "approval.approved": { ...approvalData, status: "approved", ...decided },
  "approval.rejected": { ...approvalData, status: "rejected", reason: "not our supplier", ...decided },
  ping: { domainId: 3, domain: EX.shop, message: "webhook test from BSC Pay" },
};

/** `payment.completed` → `onPaymentCompleted`. */
const operationId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}`;

function webhook(type: EventType): ZodOpenApiOperationObject {
  return {
    ...open,
    ...tagged("Webhooks"),
    operationId: operationId(type),
    summary: type,
    description: `${WHEN[type]} ${SIGNING}`,
    requestParams: { header: headers },
    // A $ref to the family's component, which `WebhookEvent` registers as the service's output (what
    // a receiver gets); zod-openapi would otherwise render a request body as input, a second copy.
    requestBody: {
      content: {
        "application/json": {
          schema: { $ref: `#/components/schemas/${familyOf(type).meta()?.id}` },
          examples: { [type]: { value: { type, timestamp: EX.later, data: EXAMPLES[type] } } },
        },
      },
    },
    responses: {
      "204": { description: "Received (any 2xx will do)." },
      "400": { description: "Refused, e.g. a bad signature (any status other than 2xx): sent again later." },
    },
  };
}

export const webhookPaths = Object.fromEntries(EVENT_TYPES.map((type) => [type, { post: webhook(type) }]));

/** The example bodies, for tests. */
export const WEBHOOK_EXAMPLES = EXAMPLES;
