import { payPaymentLink } from "@/lib/domain/payment-links/pay-link";
import { payLinkSchema } from "@/lib/domain/payment-links/schemas";
import { readJson } from "@/lib/web/http/body";
import { clientKey } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { limitClient } from "@/lib/web/http/shared-limits";

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
