import { commonRefusal } from "@/lib/errors";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { paymentLinkPage } from "@/lib/payment-links/pay-link";

/** GET /api/links/:slug (public): what the link's page shows. */
export const GET = withErrors(async ({ db, params }) => {
  const page = await paymentLinkPage(db, params.slug ?? "");
  if (!page) throw commonRefusal("NOT_FOUND", "not-found", "payment link not found");
  return ok(page, 200, { "cache-control": "no-store" });
});
