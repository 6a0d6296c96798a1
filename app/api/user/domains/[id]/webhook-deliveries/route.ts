import { getOwnDomain } from "@/lib/domains/manage-domains";
import { parseWith } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";
import { deliveriesQuerySchema, listDeliveries } from "@/lib/webhooks/deliveries";

/** GET /api/user/domains/:id/webhook-deliveries?page&limit&status → {items, meta}, newest first. */
export const GET = withUser(async ({ req, db, user, params }) => {
  const domain = await getOwnDomain(db, user.id, parseIntegerId(params.id, "domainId"));
  const query = parseWith(deliveriesQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listDeliveries(db, domain, query));
});
