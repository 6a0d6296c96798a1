import { getOwnDomain } from "@/lib/domain/merchant-domains/manage-domains";
import { queuePing } from "@/lib/domain/webhooks/deliveries";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/** POST /api/user/domains/:id/webhook-test → 201 the queued `ping` delivery. */
export const POST = withMember("developer", async ({ db, account, params }) => {
  const domain = await getOwnDomain(db, account.id, parseIntegerId(params.id, "domainId"));
  return ok(await queuePing(db, domain), 201);
});
