import { findSessionForKey } from "@/lib/domain/payments/find-session";
import { listSessionRefunds } from "@/lib/domain/refunds/find-refund";
import { toRefundView } from "@/lib/domain/refunds/refund-view";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/v1/payment/:sessionId/refunds → {items: Refund[]}, oldest first. */
export const GET = withApiKey({ scope: "refunds", browser: false }, async ({ db, apiKey, params }) => {
  const sessionId = parseUuid(params.sessionId, "sessionId");
  await findSessionForKey(db, apiKey.id, sessionId);
  return ok({ items: (await listSessionRefunds(db, sessionId)).map(toRefundView) });
});

export const OPTIONS = noCorsPreflight();
