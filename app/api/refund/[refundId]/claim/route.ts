import { claimRefund } from "@/lib/domain/refunds/claim-refund";
import { CLAIM_SECRET_PARAM } from "@/lib/domain/refunds/claim-secret";
import { claimRefundSchema } from "@/lib/domain/refunds/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";
import { limitClient } from "@/lib/web/http/shared-limits";

/**
 * POST /api/refund/:refundId/claim?k=<secret> {address} (public, with the claim link's secret): the
 * payer's address; the refund is sent (or, above the approval threshold, goes to approval). Every
 * attempt counts against the client's refund-claim limit first; a wrong or missing secret is 404
 * like an unknown refund.
 */
export const POST = withErrors(async ({ req, db, params }) => {
  await limitClient("refundClaim", req.headers);
  const refundId = parseUuid(params.refundId, "refundId");
  const { address } = await readJson(req, claimRefundSchema);
  return ok(await claimRefund(db, refundId, req.nextUrl.searchParams.get(CLAIM_SECRET_PARAM), address));
});
