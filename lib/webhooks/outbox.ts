import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db";
import { tokens, webhookDeliveries, type PaymentSession, type WebhookDelivery, type WebhookEndpoint, type Withdrawal } from "../db/schema";
import type { PaymentEventType } from "../payments/session-state";
import { toStatusView } from "../payments/session-view";
import { toWithdrawalView } from "../withdrawals/withdrawal-view";
import { endpointsForEvents } from "./endpoints";

export const WEBHOOK_EVENT_TYPES = [
  "payment.completed",
  "payment.partial",
  "payment.expired",
  "payment.cancelled",
  "payment.late",
  "withdrawal.completed",
  "withdrawal.failed",
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
  const endpoints = await endpointsForEvents(tx, events.flatMap((e) => (e.domainId === null ? [] : [e.domainId])));
  return insertDeliveries(tx, endpoints, events, now);
}

async function insertDeliveries(tx: Db, endpoints: Map<number, WebhookEndpoint>, events: OutboxEvent[], now: Date): Promise<WebhookDelivery[]> {
  const rows = events.flatMap((event) => {
    const endpoint = event.domainId === null ? undefined : endpoints.get(event.domainId);
    if (!endpoint) return [];
    const payload = JSON.stringify({ type: event.type, timestamp: now.toISOString(), data: event.data });
    return [{ endpointId: endpoint.id, eventId: newEventId(), eventType: event.type, payload, orderKey: event.orderKey, nextAttemptAt: now }];
  });
  return rows.length > 0 ? tx.insert(webhookDeliveries).values(rows).returning() : [];
}

export interface SessionEvents {
  session: PaymentSession;
  types: PaymentEventType[];
}

/** `data` of a payment event: the status view, plus what a receiver needs to route it. */
export function sessionEventData(session: PaymentSession, token: { symbol: string; decimals: number; contractAddress: string }) {
  return {
    ...toStatusView({ session, token }),
    network: session.network,
    metadata: (session.metadata as Record<string, unknown> | null) ?? null,
    domainId: session.domainId,
  };
}

/** Payment events of sessions just changed in `tx` (rows as persisted after the change). */
export async function enqueueSessionEvents(tx: Db, changes: SessionEvents[], now = new Date()): Promise<WebhookDelivery[]> {
  const relevant = changes.filter((c) => c.types.length > 0 && c.session.domainId !== null);
  if (relevant.length === 0) return [];
  const endpoints = await endpointsForEvents(tx, relevant.map((c) => c.session.domainId!));
  const addressed = relevant.filter((c) => endpoints.has(c.session.domainId!));
  if (addressed.length === 0) return [];
  const tokenRows = await tx
    .select({ id: tokens.id, symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress })
    .from(tokens)
    .where(inArray(tokens.id, [...new Set(addressed.map((c) => c.session.tokenId))]));
  const tokenOf = new Map(tokenRows.map((t) => [t.id, t]));
  return insertDeliveries(
    tx,
    endpoints,
    addressed.flatMap(({ session, types }) =>
      types.map((type) => ({
        domainId: session.domainId,
        type,
        orderKey: `session:${session.id}`,
        data: sessionEventData(session, tokenOf.get(session.tokenId)!),
      })),
    ),
    now,
  );
}

/** withdrawal.completed / withdrawal.failed, with the withdrawal as the API shows it. */
export async function enqueueWithdrawalEvent(
  tx: Db,
  withdrawal: Withdrawal,
  type: "withdrawal.completed" | "withdrawal.failed",
  now = new Date(),
): Promise<WebhookDelivery[]> {
  const endpoints = await endpointsForEvents(tx, [withdrawal.domainId]);
  if (!endpoints.has(withdrawal.domainId)) return [];
  const [token] = await tx.select({ symbol: tokens.symbol, decimals: tokens.decimals }).from(tokens).where(eq(tokens.id, withdrawal.tokenId));
  return insertDeliveries(
    tx,
    endpoints,
    [
      {
        domainId: withdrawal.domainId,
        type,
        orderKey: `withdrawal:${withdrawal.id}`,
        data: { ...toWithdrawalView(withdrawal, token!), network: withdrawal.network },
      },
    ],
    now,
  );
}
