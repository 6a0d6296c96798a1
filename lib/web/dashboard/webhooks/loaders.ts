/** The webhooks page's loader: it opens the database itself, so app/ never holds a handle. */
import { getDb } from "../../../db";
import { listDomains } from "../../../domain/merchant-domains/manage-domains";
import { deliveriesOfDomain, EMPTY_SUMMARY, webhookSummaries } from "./summaries";

/** Deliveries each domain card of `/dashboard/webhooks` shows. */
const WEBHOOKS_PAGE_DELIVERIES = 10;

/** `/dashboard/webhooks`: every domain with its endpoint (or none yet), trouble counts and its latest deliveries. */
export async function loadWebhooksPage(userId: number) {
  const db = await getDb();
  const [domains, summaries] = await Promise.all([listDomains(db, userId), webhookSummaries(db, userId)]);
  return Promise.all(
    domains.map(async (domain) => ({
      domain,
      summary: summaries.get(domain.domainId) ?? EMPTY_SUMMARY,
      deliveries: domain.webhookSecretHint
        ? await deliveriesOfDomain(db, userId, domain.domainId, { limit: WEBHOOKS_PAGE_DELIVERIES })
        : null,
    })),
  );
}
