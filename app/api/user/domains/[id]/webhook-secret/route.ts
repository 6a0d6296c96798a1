import { z } from "zod";
import { rotateDomainWebhookSecret, toDomainView, twoFactorCodeField } from "@/lib/domain/domains/manage-domains";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/**
 * POST /api/user/domains/:id/webhook-secret {code?} → the domain view with a new webhookSecret (the
 * old one signs too for 24 h); `code` (two-factor) when it is on.
 */
export const POST = withMember("developer", async ({ req, db, account, member, params }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  const { code } = await readJson(req, z.object({ code: twoFactorCodeField }));
  const { domain, endpoint } = await rotateDomainWebhookSecret(db, { account, member }, domainId, code);
  return ok({ ...toDomainView(domain, endpoint), previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null });
});
