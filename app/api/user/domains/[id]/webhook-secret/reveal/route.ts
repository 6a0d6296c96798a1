import { z } from "zod";
import { twoFactorCodeField } from "@/lib/domain/merchant-domains/manage-domains";
import { revealWebhookSecret } from "@/lib/domain/merchant-domains/webhook-secret";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/**
 * POST /api/user/domains/:id/webhook-secret/reveal {code} → {domainId, webhookSecret,
 * webhookSecretHint, previousSecret, previousSecretExpiresAt}: the only answer that shows a
 * domain's signing secret after it was made. The developer permission and the member's current
 * two-factor code; audited (never the secret).
 */
export const POST = withMember("developer", async ({ req, db, account, member, address, params }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  const { code } = await readJson(req, z.object({ code: twoFactorCodeField }));
  return ok(await revealWebhookSecret(db, { account, member, address }, domainId, code), 200, { "cache-control": "no-store" });
});
