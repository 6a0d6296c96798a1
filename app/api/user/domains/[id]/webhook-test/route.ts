import { getOwnDomain } from "@/lib/domains/manage-domains";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";
import { queuePing } from "@/lib/webhooks/deliveries";

/** POST /api/user/domains/:id/webhook-test → 201 the queued `ping` delivery. */
export const POST = withUser(async ({ db, user, params }) => {
  const domain = await getOwnDomain(db, user.id, parseIntegerId(params.id, "domainId"));
  return ok(await queuePing(db, domain), 201);
});
