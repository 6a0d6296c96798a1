import { cancelDomainPayoutChange } from "@/lib/domain/merchant-domains/manage-domains";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/**
 * DELETE /api/user/domains/:id/payout-change → the domain view: a payout address change still
 * waiting for its date is withdrawn (no two-factor code: cancelling only makes things safer).
 */
export const DELETE = withMember("payout-targets", async ({ db, account, params }) =>
  ok(await cancelDomainPayoutChange(db, account.id, parseIntegerId(params.id, "domainId"))),
);
