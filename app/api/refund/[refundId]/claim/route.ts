import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { limitClient } from "@/lib/http/shared-limits";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { claimRefundSchema } from "@/lib/refunds/schemas";

/** POST /api/refund/:refundId/claim {address} (public): the payer's address; the refund is sent. */
export const POST = withErrors(async ({ req, db, params }) => {
  await limitClient("refundClaim", req.headers);
  const refundId = parseUuid(params.refundId, "refundId");
  const { address } = await readJson(req, claimRefundSchema);
  return ok(await claimRefund(db, refundId, address));
});
