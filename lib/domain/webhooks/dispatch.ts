/**
 * Delivering the outbox, on either driver. A delivery is claimed with a lease before it is sent
 * and its outcome recorded after: a crash anywhere in between leaves it pending, and it is sent
 * again once the lease runs out (at least once, never lost). Receivers deduplicate on webhook-id.
 */

import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import { metrics } from "../../base/metrics";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { type WebhookDelivery, type WebhookEndpoint, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { signingSecrets } from "./endpoints";
import { DELIVERY_TIMEOUT_MS, type PostResult, postWebhook } from "./post-webhook";
import { retryDelayMs } from "./retry-schedule";

/** Longer than one attempt can take (DELIVERY_TIMEOUT_MS), so a live attempt is never sent twice. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS + 5_000;

export interface ClaimedDelivery {
  deliveryId: number;
  endpointId: number;
  /** The claim: only the holder of this lease (its end, ISO) may send and record the attempt. */
  lease: string;
}

/**
 * A session's later events wait while its earlier one is retried, for this many attempts (at once,
 * 5 s, 5 min); after that they go ahead, so one event the receiver keeps refusing (a 400 for a type
 * it does not handle, say) cannot hold a payment.completed back for a day.
 */
export const ORDER_HOLD_ATTEMPTS = 3;

/** At most this many deliveries of one endpoint are in flight: a slow receiver only slows itself. */
export const IN_FLIGHT_PER_ENDPOINT = 8;
/** And of all one merchant's endpoints together: many hanging endpoints of one free account cannot take every slot. */
export const IN_FLIGHT_PER_USER = 8;

/**
 * Claims up to `limit` deliveries that are due. Of each endpoint's session (orderKey) only the
 * oldest pending one is claimable, so a session's events arrive in the order they happened even
 * across retries (for ORDER_HOLD_ATTEMPTS of them); and an endpoint never has more than
 * IN_FLIGHT_PER_ENDPOINT leased at once, nor a merchant's endpoints together more than
 * IN_FLIGHT_PER_USER, so receivers that hang for 10 s per request cannot hold up anyone else's webhooks.
 */
export async function claimDueDeliveries(
  db: Db,
  limit: number,
  options: { leaseMs?: number; now?: Date } = {},
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const leaseEnd = new Date(now.getTime() + (options.leaseMs ?? LEASE_MS)).toISOString();
  const rows = rowsOf<{ id: number | string; endpoint_id: number | string }>(
    await db.execute(sql`
      with heads as (
        select d.id, d.endpoint_id, e.user_id, d.next_attempt_at,
               row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.id) as place
        from webhook_deliveries d
        join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
        where d.status = 'pending' and d.next_attempt_at <= ${at}::timestamptz
          and (d.locked_until is null or d.locked_until <= ${at}::timestamptz)
          and not exists (
            select 1 from webhook_deliveries earlier
            where earlier.endpoint_id = d.endpoint_id and earlier.order_key = d.order_key
              and earlier.status = 'pending' and earlier.id < d.id and earlier.attempts < ${ORDER_HOLD_ATTEMPTS})),
      busy as (
        select endpoint_id, count(*) as leased from webhook_deliveries
        where status = 'pending' and locked_until > ${at}::timestamptz
        group by endpoint_id),
      user_busy as (
        select e.user_id, count(*) as leased from webhook_deliveries w join webhook_endpoints e on e.id = w.endpoint_id
        where w.status = 'pending' and w.locked_until > ${at}::timestamptz
        group by e.user_id),
      open_heads as (
        select h.id, h.user_id, h.next_attempt_at,
               row_number() over (partition by h.user_id order by h.next_attempt_at, h.id) as user_place
        from heads h left join busy b on b.endpoint_id = h.endpoint_id
        where h.place <= ${IN_FLIGHT_PER_ENDPOINT} - coalesce(b.leased, 0)),
      due as (
        select o.id from open_heads o left join user_busy u on u.user_id = o.user_id
        where o.user_place <= ${IN_FLIGHT_PER_USER} - coalesce(u.leased, 0)
        order by o.next_attempt_at, o.id
        limit ${limit})
      update webhook_deliveries w set locked_until = ${leaseEnd}::timestamptz
      from due
      where w.id = due.id and w.status = 'pending' and (w.locked_until is null or w.locked_until <= ${at}::timestamptz)
      returning w.id, w.endpoint_id`),
  );
  return rows
    .map((r) => ({ deliveryId: Number(r.id), endpointId: Number(r.endpoint_id), lease: leaseEnd }))
    .sort((a, b) => a.deliveryId - b.deliveryId);
}

export type AttemptOutcome = "delivered" | "retrying" | "failed" | "skipped";

/**
 * One attempt of one claimed delivery, signed now, with its outcome recorded. Only while the claim
 * is still this one and alive: a run that started late (its lease ran out and someone else claimed
 * it, or the merchant asked for a redelivery) sends nothing and records nothing.
 */
export async function attemptDelivery(
  db: Db,
  claim: Pick<ClaimedDelivery, "deliveryId" | "lease">,
  options: { timeoutMs?: number } = {},
): Promise<AttemptOutcome> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, claim.deliveryId));
  if (row?.delivery.status !== "pending" || !row.endpoint.enabled) return "skipped";
  const lockedUntil = row.delivery.lockedUntil?.getTime();
  if (lockedUntil !== Date.parse(claim.lease) || lockedUntil <= Date.now()) return "skipped";
  const result = await postWebhook(row.endpoint.url, row.delivery.payload, signedHeaders(row.endpoint, row.delivery), {
    allowPrivate: getConfig().webhookAllowPrivate,
    timeoutMs: options.timeoutMs,
  });
  return recordAttempt(db, row.delivery, claim.lease, result);
}

/** Standard Webhooks headers; during a secret's overlap both secrets sign (space-separated). */
export function signedHeaders(
  endpoint: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">,
  delivery: Pick<WebhookDelivery, "eventId" | "payload">,
  now = new Date(),
): Record<string, string> {
  const signatures = signingSecrets(endpoint, now).map((secret) => new Webhook(secret).sign(delivery.eventId, now, delivery.payload));
  return {
    "webhook-id": delivery.eventId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

async function recordAttempt(
  db: Db,
  delivery: WebhookDelivery,
  lease: string,
  result: PostResult,
  now = new Date(),
): Promise<AttemptOutcome> {
  const attempts = delivery.attempts + 1;
  const delay = result.ok ? null : retryDelayMs(attempts);
  const outcome: AttemptOutcome = result.ok ? "delivered" : delay === null ? "failed" : "retrying";
  await db
    .update(webhookDeliveries)
    .set({
      status: outcome === "retrying" ? "pending" : outcome === "delivered" ? "delivered" : "failed",
      attempts,
      lastStatusCode: result.statusCode,
      lastError: result.error,
      lastAttemptAt: now,
      nextAttemptAt: delay === null ? now : new Date(now.getTime() + delay),
      deliveredAt: result.ok ? now : null,
      lockedUntil: null,
    })
    .where(
      and(
        eq(webhookDeliveries.id, delivery.id),
        eq(webhookDeliveries.status, "pending"),
        sql`${webhookDeliveries.lockedUntil} = ${lease}::timestamptz`,
      ),
    );
  metrics().webhookAttempts.inc({ outcome });
  if (outcome === "failed") {
    log.warn(
      { deliveryId: delivery.id, eventType: delivery.eventType, attempts },
      "webhook delivery failed for good; the merchant can redeliver it",
    );
  }
  return outcome;
}
