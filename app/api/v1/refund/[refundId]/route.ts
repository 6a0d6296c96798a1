import { ok } from "@/lib/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { findRefund } from "@/lib/refunds/find-refund";
import { toRefundView } from "@/lib/refunds/refund-view";

/** GET /api/v1/refund/:refundId → Refund; another key's → 404. */
export const GET = withApiKey({ scope: "refunds", browser: false }, async ({ db, apiKey, params }) =>
  ok(toRefundView(await findRefund(db, { apiKeyId: apiKey.id }, parseUuid(params.refundId, "refundId")))),
);

export const OPTIONS = noCorsPreflight();
