import { ok } from "@/lib/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { cancelPaymentSession } from "@/lib/payments/cancel-session";

/** POST /api/v1/payment/:sessionId/cancel → {message, status}; a terminal session is left as it is. */
export const POST = withApiKey({ scope: "payments:write", browser: true }, async ({ db, apiKey, params }) =>
  ok(await cancelPaymentSession(db, { apiKeyId: apiKey.id }, parseUuid(params.sessionId, "sessionId"))),
);

export const OPTIONS = corsPreflight("POST");
