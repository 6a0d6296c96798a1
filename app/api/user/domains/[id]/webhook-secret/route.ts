import { z } from "zod";
import { twoFactorCodeField } from "@/lib/domain/merchant-domains/manage-domains";
import { rotateDomainWebhookSecret } from "@/lib/domain/merchant-domains/webhook-secret";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/**
 * POST /api/user/domains/:id/webhook-secret {code} → the domain view with its new webhookSecret,
 * shown this once (the old one signs too for 24 h). The member's two-factor code is required:
 * without two-factor on, 403 webhook-secret-needs-two-factor.
 */
export const POST = withMember("developer", async ({ req, db, account, member, address, params }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  const { code } = await readJson(req, z.object({ code: twoFactorCodeField }));
  return ok(await rotateDomainWebhookSecret(db, { account, member, address }, domainId, code));
});
