import { randomBytes } from "node:crypto";
import type { Db } from "../../db";
import { type WebhookDelivery, type WebhookEndpoint, webhookDeliveries } from "../../db/schema";
import { endpointsForEvents } from "./endpoints";

export const WEBHOOK_EVENT_TYPES = [
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
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface OutboxEvent {
  domainId: number | null;
  type: WebhookEventType;
  /** Events with the same key reach an endpoint in the order they were written (one per session). */
  orderKey: string;
  data: Record<string, unknown>;
}

/** "msg_" + 24 url-safe characters: the webhook-id, the receiver's idempotency key. */
export function newEventId(): string {
  return `msg_${randomBytes(18).toString("base64url")}`;
}

/**
 * Writes the events into the outbox, one delivery per event for its domain's endpoint (none when
 * the domain never had a webhookUrl; while its URL is cleared they wait for the next one). Call it in the transaction that makes the change the events
 * describe: both commit or neither does, so no event is lost and none is invented.
 */
export async function enqueueEvents(tx: Db, events: OutboxEvent[], now = new Date()): Promise<WebhookDelivery[]> {
  const endpoints = await endpointsForEvents(
    tx,
    events.flatMap((e) => (e.domainId === null ? [] : [e.domainId])),
  );
  return insertDeliveries(tx, endpoints, events, now);
}

/**
 * The same, for callers that looked the endpoints up first (endpointsForEvents) to build the
 * events' data only when someone will receive them.
 */
export async function insertDeliveries(
  tx: Db,
  endpoints: Map<number, WebhookEndpoint>,
  events: OutboxEvent[],
  now: Date,
): Promise<WebhookDelivery[]> {
  const rows = events.flatMap((event) => {
    const endpoint = event.domainId === null ? undefined : endpoints.get(event.domainId);
    if (!endpoint) return [];
    const payload = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: event.data });
    return [
      { endpointId: endpoint.id, eventId: newEventId(), eventType: event.type, payload, orderKey: event.orderKey, nextAttemptAt: now },
    ];
  });
  return rows.length > 0 ? tx.insert(webhookDeliveries).values(rows).returning() : [];
}
