import { readJson } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { limiters } from "@/lib/http/rate-limit";
import { payPaymentLink } from "@/lib/payment-links/pay-link";
import { payLinkSchema } from "@/lib/payment-links/schemas";

/** POST /api/links/:slug/pay {amount?} (public) → 201 {sessionId, checkoutUrl, …}: a fresh session for the hosted checkout. */
export const POST = withErrors(async ({ req, db, params }) => {
  limiters().linkPay.consume(clientIp(req.headers));
  const input = await readJson(req, payLinkSchema);
  return ok(await payPaymentLink(db, params.slug ?? "", input), 201);
});
