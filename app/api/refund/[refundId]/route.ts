import { assertClaimRead } from "@/lib/domain/refunds/claim-access";
import { refundClaimPage } from "@/lib/domain/refunds/claim-refund";
import { CLAIM_SECRET_PARAM } from "@/lib/domain/refunds/claim-secret";
import { clientKey } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/**
 * GET /api/refund/:refundId?k=<secret> (public, with the claim link's secret): what the claim page
 * shows. A wrong or missing secret is 404 like an unknown refund, counted against the client's
 * refund-claim limit; over it, 429 before any secret is checked.
 */
export const GET = withErrors(async ({ req, db, params }) => {
  const refundId = parseUuid(params.refundId, "refundId");
  const secret = req.nextUrl.searchParams.get(CLAIM_SECRET_PARAM);
  await assertClaimRead(db, clientKey(req.headers), refundId, secret);
  return ok(await refundClaimPage(db, refundId, secret), 200, { "cache-control": "no-store" });
});
