import { readJson } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { limiters } from "@/lib/http/rate-limit";
import { claimRefund } from "@/lib/refunds/claim-refund";
import { claimRefundSchema } from "@/lib/refunds/schemas";

/** POST /api/refund/:refundId/claim {address} (public): the payer's address; the refund is sent. */
export const POST = withErrors(async ({ req, db, params }) => {
  limiters().refundClaim.consume(clientIp(req.headers));
  const refundId = parseUuid(params.refundId, "refundId");
  const { address } = await readJson(req, claimRefundSchema);
  return ok(await claimRefund(db, refundId, address));
});
