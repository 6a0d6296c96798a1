import { claimRefund } from "@/lib/domain/refunds/claim-refund";
import { claimRefundSchema } from "@/lib/domain/refunds/schemas";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";
import { limitClient } from "@/lib/web/http/shared-limits";

/** POST /api/refund/:refundId/claim {address} (public): the payer's address; the refund is sent. */
export const POST = withErrors(async ({ req, db, params }) => {
  await limitClient("refundClaim", req.headers);
  const refundId = parseUuid(params.refundId, "refundId");
  const { address } = await readJson(req, claimRefundSchema);
  return ok(await claimRefund(db, refundId, address));
});
