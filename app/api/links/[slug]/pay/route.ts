import { readJson } from "@/lib/http/body";
import { clientKey } from "@/lib/http/client-ip";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { limitClient } from "@/lib/http/shared-limits";
import { payPaymentLink } from "@/lib/payment-links/pay-link";
import { payLinkSchema } from "@/lib/payment-links/schemas";

/**
 * POST /api/links/:slug/pay {amount?} (public) → 201 {sessionId, checkoutUrl, …}: a session for the
 * hosted checkout — the client's open one for the same amount, else a fresh one; 429 while the
 * link has its cap of open unpaid sessions.
 */
export const POST = withErrors(async ({ req, db, params }) => {
  await limitClient("linkPay", req.headers);
  const input = await readJson(req, payLinkSchema);
  return ok(await payPaymentLink(db, params.slug ?? "", input, clientKey(req.headers)), 201);
});
