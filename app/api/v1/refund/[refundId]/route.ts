import { findRefund } from "@/lib/domain/refunds/find-refund";
import { toRefundView } from "@/lib/domain/refunds/refund-view";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/v1/refund/:refundId → Refund; another key's → 404. */
export const GET = withApiKey({ scope: "refunds", browser: false }, async ({ db, apiKey, params }) =>
  ok(toRefundView(await findRefund(db, { apiKeyId: apiKey.id }, parseUuid(params.refundId, "refundId")))),
);

export const OPTIONS = noCorsPreflight();
