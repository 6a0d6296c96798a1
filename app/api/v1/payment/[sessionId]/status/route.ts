import { ok } from "@/lib/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { findStatusForKey } from "@/lib/payments/find-session";
import { toStatusView } from "@/lib/payments/session-view";

/** GET /api/v1/payment/:sessionId/status */
export const GET = withApiKey({ scope: "payments:read", browser: true }, async ({ db, apiKey, params }) =>
  ok(toStatusView(await findStatusForKey(db, apiKey.id, parseUuid(params.sessionId, "sessionId")))),
);

export const OPTIONS = corsPreflight("GET");
