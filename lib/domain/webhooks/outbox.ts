/**
 * The webhook channel's outbox (lib/domain/notifications writes to it through `notify`): one
 * delivery per event for its domain's endpoint, in the transaction that makes the change.
 */

import { randomBytes } from "node:crypto";
import type { Db } from "../../db";
import { type WebhookDelivery, type WebhookEndpoint, webhookDeliveries } from "../../db/schema";
import { endpointsForEvents } from "./endpoints";

/** An event as the webhook channel carries it (lib/domain/notifications/events.ts names the types). */
export interface WebhookEvent {
  domainId: number | null;
  type: string;
  /** Events with the same key reach an endpoint in the order they were written (one per session). */
  orderKey: string;
  data: Record<string, unknown>;
}

/** "msg_" + 24 url-safe characters: the webhook-id, the receiver's idempotency key. */
export function newEventId(): string {
  return `msg_${randomBytes(18).toString("base64url")}`;
}

/**
 * One delivery per event for its domain's endpoint among `endpoints` (none when the domain never
 * had a webhookUrl; while its URL is cleared they wait for the next one).
 */
export async function insertDeliveries(
  tx: Db,
  endpoints: ReadonlyMap<number, WebhookEndpoint>,
  events: readonly WebhookEvent[],
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

/** The same, looking the endpoints up (a test event goes to its own endpoint only, through here). */
export async function enqueueWebhookEvents(tx: Db, events: readonly WebhookEvent[], now = new Date()): Promise<WebhookDelivery[]> {
  const endpoints = await endpointsForEvents(
    tx,
    events.flatMap((e) => (e.domainId === null ? [] : [e.domainId])),
  );
  return insertDeliveries(tx, endpoints, events, now);
}
