import { getCheckoutView } from "@/lib/checkout/checkout-view";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";

/** GET /api/checkout/:sessionId (public): what the hosted payment page shows; nothing about the merchant. */
export const GET = withErrors(async ({ db, params }) => {
  const view = await getCheckoutView(db, parseUuid(params.sessionId, "sessionId"));
  return ok(view, 200, { "cache-control": "no-store" });
});
