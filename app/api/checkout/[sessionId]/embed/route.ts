import { isEmbedOriginAllowed } from "@/lib/web/checkout/embed-origin";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/checkout/:sessionId/embed?origin=… (public): may this origin receive the outcome by postMessage? */
export const GET = withErrors(async ({ req, db, params }) => {
  const sessionId = parseUuid(params.sessionId, "sessionId");
  const origin = req.nextUrl.searchParams.get("origin") ?? "";
  return ok({ allowed: await isEmbedOriginAllowed(db, sessionId, origin) }, 200, { "cache-control": "no-store" });
});
