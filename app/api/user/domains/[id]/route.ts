import { deleteDomain, getDomainView, updateDomain, updateDomainSchema } from "@/lib/domains/manage-domains";
import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { parseIntegerId } from "@/lib/http/params";

export const GET = withUser(async ({ db, user, params }) => ok(await getDomainView(db, user.id, parseIntegerId(params.id, "domainId"))));

/**
 * PATCH /api/user/domains/:id {payoutAddress?, webhookUrl?, code?} (null clears). With two-factor
 * on, a change needs `code`; a new payout address waits PAYOUT_CHANGE_DELAY once the merchant has
 * been paid on any domain (shown as pendingPayoutAddress / payoutChangeEffectiveAt).
 */
export const PATCH = withUser(async ({ req, db, user, params }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  const changes = await readJson(req, updateDomainSchema);
  return ok(await updateDomain(db, user, domainId, changes));
});

export const DELETE = withUser(async ({ db, user, params }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  await deleteDomain(db, user.id, domainId);
  return ok({ message: "domain removed from the whitelist", domainId });
});
