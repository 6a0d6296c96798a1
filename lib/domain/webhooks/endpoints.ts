import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow, rowsOf } from "../../db/rows";
import { type Domain, domains, type WebhookEndpoint, webhookEndpoints } from "../../db/schema";
import { webhookRefusal } from "./reasons";

/** How long a rotated-out secret keeps signing (a second signature), so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;

/** Standard Webhooks secret: "whsec_" + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

/**
 * One endpoint per domain, following its webhookUrl: set → enabled at that URL (its secret is
 * made once and kept across URL changes); cleared or domain removed → disabled. Deliveries of a
 * disabled endpoint wait, pending, until it has a URL again. Call it in the domain's transaction.
 */
export async function syncEndpoint(tx: Db, domain: Domain): Promise<WebhookEndpoint | null> {
  if (domain.webhookUrl && !domain.deletedAt) {
    const upserted = await tx
      .insert(webhookEndpoints)
      .values({ userId: domain.userId, domainId: domain.id, url: domain.webhookUrl, secret: newWebhookSecret() })
      .onConflictDoUpdate({ target: webhookEndpoints.domainId, set: { url: domain.webhookUrl, enabled: true, updatedAt: new Date() } })
      .returning();
    return requireRow(upserted, `webhook endpoint of domain ${domain.id}`);
  }
  await tx.update(webhookEndpoints).set({ enabled: false, updatedAt: new Date() }).where(eq(webhookEndpoints.domainId, domain.id));
  return null;
}

/** The enabled endpoints of these domains, by domain id. */
export async function endpointsOfDomains(db: Db, domainIds: number[]): Promise<Map<number, WebhookEndpoint>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.domainId, [...new Set(domainIds)]), eq(webhookEndpoints.enabled, true)));
  // biome-ignore lint/style/noNonNullAssertion: the rows are selected by domain id, so domainId is not null
  return new Map(rows.map((e) => [e.domainId!, e]));
}

/**
 * Where the events of these domains go, by domain id: their endpoints, enabled or not — an endpoint
 * whose URL was cleared keeps its events, pending, until it has a URL again (nothing happens
 * behind the merchant's back, nothing is lost). Removed domains get none.
 */
export async function endpointsForEvents(db: Db, domainIds: number[]): Promise<Map<number, WebhookEndpoint>> {
  if (domainIds.length === 0) return new Map();
  const rows = await db
    .select({ endpoint: webhookEndpoints })
    .from(webhookEndpoints)
    .innerJoin(domains, eq(domains.id, webhookEndpoints.domainId))
    .where(and(inArray(webhookEndpoints.domainId, [...new Set(domainIds)]), isNull(domains.deletedAt)));
  // biome-ignore lint/style/noNonNullAssertion: the rows are selected by domain id, so domainId is not null
  return new Map(rows.map(({ endpoint }) => [endpoint.domainId!, endpoint]));
}

/** Whether the domain has an endpoint at all, enabled or not (its secret made once, kept across URL changes). */
export async function hasEndpoint(db: Db, domainId: number): Promise<boolean> {
  const [row] = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.domainId, domainId));
  return row !== undefined;
}

export async function endpointOfDomain(db: Db, domainId: number): Promise<WebhookEndpoint | null> {
  return (await endpointsOfDomains(db, [domainId])).get(domainId) ?? null;
}

/** The endpoint of the user's domain; without a webhookUrl there is none to act on. */
export async function requireEndpoint(db: Db, domain: Domain): Promise<WebhookEndpoint> {
  const endpoint = domain.webhookUrl ? await endpointOfDomain(db, domain.id) : null;
  if (!endpoint)
    throw webhookRefusal(
      "VALIDATION_ERROR",
      "webhook-url-missing",
      "this domain has no webhookUrl; set one first (PATCH /api/user/domains/:id)",
    );
  return endpoint;
}

/** A new secret; the old one keeps signing alongside it for SECRET_OVERLAP_MS. */
export async function rotateSecret(db: Db, domain: Domain, now = new Date()): Promise<WebhookEndpoint> {
  const endpoint = await requireEndpoint(db, domain);
  const rotated = await db
    .update(webhookEndpoints)
    .set({
      secret: newWebhookSecret(),
      previousSecret: endpoint.secret,
      previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return requireRow(rotated, `secret rotation of webhook endpoint ${endpoint.id}`);
}

/** The secrets that sign a delivery now: the current one, and the previous during its overlap. */
export function signingSecrets(
  endpoint: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">,
  now = new Date(),
): string[] {
  const previous = endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? endpoint.previousSecret : null;
  return previous ? [endpoint.secret, previous] : [endpoint.secret];
}

/** Every domain with a webhookUrl and no endpoint gets one (run at start-up). */
export async function backfillEndpoints(db: Db): Promise<number> {
  const missing = await db
    .select({ domain: domains })
    .from(domains)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.domainId, domains.id))
    .where(and(isNotNull(domains.webhookUrl), isNull(domains.deletedAt), isNull(webhookEndpoints.id)));
  for (const { domain } of missing) await syncEndpoint(db, domain);
  return missing.length;
}

/** Counts for /api/health: deliveries waiting, and those that gave up (the merchant sees them). */
export async function webhookBacklog(db: Db): Promise<{ pending: number; failed: number }> {
  const [row] = rowsOf<{ pending: number; failed: number }>(
    await db.execute(sql`
    select count(*) filter (where d.status = 'pending' and e.enabled)::int as pending,
           count(*) filter (where d.status = 'failed')::int as failed
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where d.status <> 'delivered'`),
  );
  return { pending: Number(row?.pending ?? 0), failed: Number(row?.failed ?? 0) };
}
