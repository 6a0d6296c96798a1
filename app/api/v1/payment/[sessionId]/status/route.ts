import { findStatusForKey } from "@/lib/domain/payments/find-session";
import { toStatusView } from "@/lib/domain/payments/session-view";
import { ok } from "@/lib/web/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/v1/payment/:sessionId/status */
export const GET = withApiKey({ scope: "payments:read", browser: true }, async ({ db, apiKey, params }) =>
  ok(toStatusView(await findStatusForKey(db, apiKey.id, parseUuid(params.sessionId, "sessionId")))),
);

export const OPTIONS = corsPreflight("GET");
