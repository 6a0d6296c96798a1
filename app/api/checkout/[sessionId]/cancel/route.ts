import { cancelCheckout } from "@/lib/web/checkout/cancel-checkout";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";
import { limitClient } from "@/lib/web/http/shared-limits";

/**
 * POST /api/checkout/:sessionId/cancel (public: the session id is the key) → {status, returnUrl}.
 * The payer's cancel of a pending session with nothing received; anything else is a 400 and
 * changes nothing. Each client may change checkouts 30 times a minute (429, shared with choosing a token).
 */
export const POST = withErrors(async ({ req, db, params }) => {
  await limitClient("checkoutChange", req.headers);
  return ok(await cancelCheckout(db, parseUuid(params.sessionId, "sessionId")), 200, { "cache-control": "no-store" });
});
