import { getOwnDomain, toDomainView } from "@/lib/domains/manage-domains";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";
import { rotateSecret } from "@/lib/webhooks/endpoints";

/** POST /api/user/domains/:id/webhook-secret → the domain view with a new webhookSecret (the old one signs too for 24 h). */
export const POST = withUser(async ({ db, user, params }) => {
  const domain = await getOwnDomain(db, user.id, parseIntegerId(params.id, "domainId"));
  const endpoint = await rotateSecret(db, domain);
  return ok({ ...toDomainView(domain, endpoint), previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null });
});
