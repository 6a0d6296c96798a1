import { getCheckoutView } from "@/lib/web/checkout/checkout-view";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/checkout/:sessionId (public): what the hosted payment page shows; nothing about the merchant. */
export const GET = withErrors(async ({ db, params }) => {
  const view = await getCheckoutView(db, parseUuid(params.sessionId, "sessionId"));
  return ok(view, 200, { "cache-control": "no-store" });
});
