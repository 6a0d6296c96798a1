import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import type { KeysetPage } from "../../../db/keyset";
import { webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import { getOwnDomain } from "../../../domain/merchant-domains/manage-domains";
import { type DeliveriesCursorQuery, type DeliveryView, deliveriesByCursor } from "../../../domain/webhooks/deliveries";

/** A page of a list read by cursor, for the pages that draw one (they never import lib/db). */
export type { KeysetPage };

/** What the domain card shows about its webhooks besides the list: trouble counts and the rotation overlap. */
export interface WebhookSummary {
  /** Gave up after every retry: the merchant has to fix the endpoint and redeliver. */
  failed: number;
  /** Pending after at least one failed attempt. */
  retrying: number;
  /** While a rotated-out secret still signs (null once it has stopped). */
  previousSecretExpiresAt: string | null;
}

export const EMPTY_SUMMARY: WebhookSummary = { failed: 0, retrying: 0, previousSecretExpiresAt: null };

/** Per domain id, for the user's enabled endpoints, in one query. */
export async function webhookSummaries(db: Db, userId: number, now = new Date()): Promise<Map<number, WebhookSummary>> {
  const rows = await db
    .select({
      domainId: webhookEndpoints.domainId,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
      failed: sql<number>`count(${webhookDeliveries.id}) filter (where ${webhookDeliveries.status} = 'failed')::int`,
      retrying: sql<number>`count(${webhookDeliveries.id}) filter (where ${webhookDeliveries.status} = 'pending' and ${webhookDeliveries.attempts} > 0)::int`,
    })
    .from(webhookEndpoints)
    // Delivered rows are most of the table and never counted: keep them out of the join.
    .leftJoin(webhookDeliveries, and(eq(webhookDeliveries.endpointId, webhookEndpoints.id), ne(webhookDeliveries.status, "delivered")))
    .where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.enabled, true)))
    .groupBy(webhookEndpoints.id);
  return new Map(
    rows.flatMap((r) => {
      if (r.domainId === null) return [];
      const overlap = r.previousSecretExpiresAt && r.previousSecretExpiresAt > now ? r.previousSecretExpiresAt.toISOString() : null;
      return [[r.domainId, { failed: Number(r.failed), retrying: Number(r.retrying), previousSecretExpiresAt: overlap }]];
    }),
  );
}

/** One page (by cursor) of the deliveries of the user's domain (another user's domain is NOT_FOUND). */
export async function deliveriesOfDomain(
  db: Db,
  userId: number,
  domainId: number,
  query: DeliveriesCursorQuery,
): Promise<KeysetPage<DeliveryView>> {
  return deliveriesByCursor(db, await getOwnDomain(db, userId, domainId), query);
}
