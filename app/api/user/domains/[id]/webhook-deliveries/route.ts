import { getOwnDomain } from "@/lib/domain/merchant-domains/manage-domains";
import { deliveriesQuerySchema, listDeliveries } from "@/lib/domain/webhooks/deliveries";
import { parseWith } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/** GET /api/user/domains/:id/webhook-deliveries?page&limit&status → {items, meta}, newest first. */
export const GET = withMember("read", async ({ req, db, account, params }) => {
  const domain = await getOwnDomain(db, account.id, parseIntegerId(params.id, "domainId"));
  const query = parseWith(deliveriesQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listDeliveries(db, domain, query));
});
