import { randomUUID } from "node:crypto";
import { and, count, desc, eq, isNull, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import { commonRefusal } from "../../base/errors";
import { offsetOf, type Page, pageOf } from "../../base/pagination";
import { pageParamSchema } from "../../base/validation";
import type { Db } from "../../db";
import { type KeysetPage, keysetBounds, reachedNewest } from "../../db/keyset";
import { requireRow } from "../../db/rows";
import { type Domain, type WebhookDelivery, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { requireEndpoint } from "./endpoints";
import { enqueueWebhookEvents } from "./outbox";
import { webhookRefusal } from "./reasons";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const deliveriesQuerySchema = z.object({
  page: pageParamSchema("page", 1),
  limit: pageParamSchema("limit", 20, 100),
  status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
});

export function toDeliveryView(delivery: WebhookDelivery) {
  return {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    lastStatusCode: delivery.lastStatusCode,
    lastError: delivery.lastError,
    lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: delivery.status === "pending" ? delivery.nextAttemptAt.toISOString() : null,
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    payload: JSON.parse(delivery.payload) as unknown,
  };
}

export type DeliveryView = ReturnType<typeof toDeliveryView>;

/**
 * The API's `total` counts at most this many deliveries: counting an endpoint's whole history on
 * every page would cost as much as the history. A larger history answers this number
 * (and its `pages`), still with every page of it reachable.
 */
export const DELIVERIES_TOTAL_CAP = 10_000;

/** The deliveries of the domain's endpoint, newest first, by page (GET …/webhook-deliveries). */
export async function listDeliveries(db: Db, domain: Domain, query: z.output<typeof deliveriesQuerySchema>): Promise<Page<DeliveryView>> {
  const [endpoint] = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.domainId, domain.id));
  if (!endpoint) return pageOf([], 0, query);
  const where = deliveriesWhere(endpoint.id, query.status);
  // Bounded count: the index (endpoint_id, created_at, id) stops after the cap.
  const [total] = await db.select({ n: count() }).from(
    db
      .select({ one: sql`1`.as("one") })
      .from(webhookDeliveries)
      .where(where)
      .limit(DELIVERIES_TOTAL_CAP)
      .as("capped"),
  );
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(query.limit)
    .offset(offsetOf(query));
  return pageOf(rows.map(toDeliveryView), Number(total?.n ?? 0), query);
}

const deliveriesWhere = (endpointId: number, status: DeliveryStatus | undefined) =>
  and(eq(webhookDeliveries.endpointId, endpointId), status ? eq(webhookDeliveries.status, status) : undefined);

type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveriesCursorQuery {
  limit: number;
  status?: DeliveryStatus;
  /** The page of deliveries older than this cursor. */
  after?: string;
  /** The page of deliveries newer than this cursor. */
  before?: string;
}

/**
 * The dashboard's page of the domain's deliveries, newest first, by keyset on the index
 * (endpoint_id, created_at, id): a deep page costs what the first does, nothing counts the
 * history. A cursor we did not hand out is a VALIDATION_ERROR.
 */
export async function deliveriesByCursor(db: Db, domain: Domain, query: DeliveriesCursorQuery): Promise<KeysetPage<DeliveryView>> {
  const [endpoint] = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.domainId, domain.id));
  if (!endpoint) return { items: [], newer: null, older: null };
  const page = await deliveriesPage(db, endpoint.id, query);
  // Newer from a second page once deliveries arrived in between: the newest full page instead.
  const shown = reachedNewest(query, page) ? await deliveriesPage(db, endpoint.id, { limit: query.limit, status: query.status }) : page;
  return { ...shown, items: shown.items.map((r) => toDeliveryView(r.delivery)) };
}

async function deliveriesPage(db: Db, endpointId: number, query: DeliveriesCursorQuery) {
  const keyset = keysetBounds({ createdAt: webhookDeliveries.createdAt, id: webhookDeliveries.id }, query, "integer");
  const rows = await db
    .select({ delivery: webhookDeliveries, cursorTime: keyset.cursorTime })
    .from(webhookDeliveries)
    .where(and(deliveriesWhere(endpointId, query.status), keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
  return keyset.pageOf(rows, (row) => ({ createdAt: row.cursorTime, id: String(row.delivery.id) }));
}

/**
 * Sends the same event again (same webhook-id, so a receiver that already has it can tell), from
 * a fresh schedule. Works for failed and delivered ones alike; another user's is NOT_FOUND.
 */
export async function redeliver(db: Db, userId: number, deliveryId: number): Promise<DeliveryView> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row || row.endpoint.userId !== userId) throw commonRefusal("NOT_FOUND", "not-found", "webhook delivery not found");
  if (!row.endpoint.enabled)
    throw webhookRefusal("VALIDATION_ERROR", "webhook-url-removed", "this domain has no webhookUrl any more; set one to redeliver");
  const now = new Date();
  // Never under a live claim: the attempt in flight records its own outcome.
  const [queued] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, lockedUntil: null, deliveredAt: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now))))
    .returning();
  if (!queued)
    throw webhookRefusal(
      "VALIDATION_ERROR",
      "webhook-delivery-in-flight",
      "this delivery is being sent right now; try again in a few seconds",
    );
  return toDeliveryView(queued);
}

/**
 * Pings waiting for one endpoint at most: anyone can sign up and point a webhook at a receiver
 * that never answers, and unlimited pings would keep delivery slots busy for everyone.
 */
export const MAX_PENDING_PINGS = 5;

/** Queues a `ping` to the domain's endpoint: the merchant's "does my receiver work?" button. */
export async function queuePing(db: Db, domain: Domain): Promise<DeliveryView> {
  const endpoint = await requireEndpoint(db, domain);
  const [waiting] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(
      and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.eventType, "ping"), eq(webhookDeliveries.status, "pending")),
    );
  if (Number(waiting?.n ?? 0) >= MAX_PENDING_PINGS) {
    throw webhookRefusal(
      "RATE_LIMITED",
      "webhook-test-events-waiting",
      `${MAX_PENDING_PINGS} test events are still waiting for your endpoint; send more once they are delivered`,
      undefined,
      { "retry-after": "10" },
    );
  }
  // Each ping on its own: a test must not wait behind an earlier one that is still retrying.
  const queued = await enqueueWebhookEvents(db, [
    {
      domainId: domain.id,
      type: "ping",
      orderKey: `ping:${randomUUID()}`,
      data: { domainId: domain.id, domain: domain.origin, message: "webhook test from BSC Pay" },
    },
  ]);
  return toDeliveryView(requireRow(queued, `ping delivery of domain ${domain.id}`));
}
