import { chooseCheckoutToken, chooseTokenSchema } from "@/lib/web/checkout/choose-checkout-token";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";
import { limitClient } from "@/lib/web/http/shared-limits";

/**
 * POST /api/checkout/:sessionId/token (public: the session id is the key) `{tokenId}` → the
 * checkout view, now asking for that token at its locked quote. Only a fiat-priced session,
 * pending with nothing received, and one of its quoted tokens; anything else is a 400 (404 for
 * an unknown session) and changes nothing. Each client may change checkouts 30 times a minute (429).
 */
export const POST = withErrors(async ({ req, db, params }) => {
  await limitClient("checkoutChange", req.headers);
  const sessionId = parseUuid(params.sessionId, "sessionId");
  const { tokenId } = await readJson(req, chooseTokenSchema);
  return ok(await chooseCheckoutToken(db, sessionId, tokenId), 200, { "cache-control": "no-store" });
});
