import { ok } from "@/lib/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { findSessionForKey } from "@/lib/payments/find-session";
import { listSessionRefunds } from "@/lib/refunds/find-refund";
import { toRefundView } from "@/lib/refunds/refund-view";

/** GET /api/v1/payment/:sessionId/refunds → {items: Refund[]}, oldest first. */
export const GET = withApiKey({ scope: "refunds", browser: false }, async ({ db, apiKey, params }) => {
  const sessionId = parseUuid(params.sessionId, "sessionId");
  await findSessionForKey(db, apiKey.id, sessionId);
  return ok({ items: (await listSessionRefunds(db, sessionId)).map(toRefundView) });
});

export const OPTIONS = noCorsPreflight();
