import { deleteDomain, getDomainView, updateDomain, updateDomainSchema } from "@/lib/domain/merchant-domains/manage-domains";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

export const GET = withMember("read", async ({ db, account, params }) =>
  ok(await getDomainView(db, account.id, parseIntegerId(params.id, "domainId"))),
);

/**
 * PATCH /api/user/domains/:id {payoutAddress?, webhookUrl?, fiatUnderpayBps?, fiatRateToleranceBps?, code?}
 * (null clears; the two fiat thresholds are whole basis points 0–1000, null = the gateway's). With two-factor
 * on, a change needs `code`; a new payout address waits PAYOUT_CHANGE_DELAY once the merchant has
 * been paid on any domain (shown as pendingPayoutAddress / payoutChangeEffectiveAt).
 */
export const PATCH = withMember("read", async ({ req, db, params, ...principal }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  const changes = await readJson(req, updateDomainSchema);
  return ok(await updateDomain(db, principal, domainId, changes));
});

export const DELETE = withMember("developer", async ({ db, account, params }) => {
  const domainId = parseIntegerId(params.id, "domainId");
  await deleteDomain(db, account.id, domainId);
  return ok({ message: "domain removed from the whitelist", domainId });
});
