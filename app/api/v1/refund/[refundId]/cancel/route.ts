import { cancelRefund } from "@/lib/domain/refunds/cancel-refund";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** POST /api/v1/refund/:refundId/cancel → Refund (cancelled); a claimed refund → 400. */
export const POST = withApiKey({ scope: "refunds", browser: false }, async ({ db, apiKey, params }) =>
  ok(await cancelRefund(db, { apiKeyId: apiKey.id }, parseUuid(params.refundId, "refundId"))),
);

export const OPTIONS = noCorsPreflight();
