import { cancelPaymentSession } from "@/lib/domain/payments/cancel-session";
import { ok } from "@/lib/web/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** POST /api/v1/payment/:sessionId/cancel → {message, status}; a terminal session is left as it is. */
export const POST = withApiKey({ scope: "payments:write", browser: true }, async ({ db, apiKey, params }) =>
  ok(await cancelPaymentSession(db, { apiKeyId: apiKey.id }, parseUuid(params.sessionId, "sessionId"))),
);

export const OPTIONS = corsPreflight("POST");
