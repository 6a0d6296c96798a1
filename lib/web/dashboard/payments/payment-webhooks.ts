/**
 * The webhook deliveries about one payment, for its page: every event the outbox wrote with the
 * session's order key (`session:<id>`, lib/domain/payments/session-events.ts), to whichever of the
 * user's endpoints received it, with the domain and URL it went to.
 */
import { and, desc, eq, gte } from "drizzle-orm";
import type { Db } from "../../../db";
import { domains, webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import { type DeliveryView, toDeliveryView } from "../../../domain/webhooks/deliveries";

export interface PaymentDelivery extends DeliveryView {
  endpointUrl: string;
  domain: string | null;
}

/** Newest first, at most `limit`; scoped to the user's endpoints (another user's session has none here). */
export async function deliveriesOfSession(
  db: Db,
  userId: number,
  session: { id: string; createdAt: Date },
  limit = 50,
): Promise<PaymentDelivery[]> {
  const rows = await db
    .select({ delivery: webhookDeliveries, endpointUrl: webhookEndpoints.url, domain: domains.origin })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .leftJoin(domains, eq(domains.id, webhookEndpoints.domainId))
    .where(
      and(
        eq(webhookEndpoints.userId, userId),
        eq(webhookDeliveries.orderKey, `session:${session.id}`),
        // No event predates its session: this bounds the (endpoint, created_at) index scan.
        gte(webhookDeliveries.createdAt, session.createdAt),
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((r) => ({ ...toDeliveryView(r.delivery), endpointUrl: r.endpointUrl, domain: r.domain }));
}
