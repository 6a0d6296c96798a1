import { ok } from "@/lib/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { cancelRefund } from "@/lib/refunds/cancel-refund";

/** POST /api/v1/refund/:refundId/cancel → Refund (cancelled); a claimed refund → 400. */
export const POST = withApiKey({ scope: "refunds", browser: false }, async ({ db, apiKey, params }) =>
  ok(await cancelRefund(db, { apiKeyId: apiKey.id }, parseUuid(params.refundId, "refundId"))),
);

export const OPTIONS = noCorsPreflight();
