import { commonRefusal } from "@/lib/base/errors";
import { paymentLinkPage } from "@/lib/domain/payment-links/pay-link";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";

/** GET /api/links/:slug (public): what the link's page shows. */
export const GET = withErrors(async ({ db, params }) => {
  const page = await paymentLinkPage(db, params.slug ?? "");
  if (!page) throw commonRefusal("NOT_FOUND", "not-found", "payment link not found");
  return ok(page, 200, { "cache-control": "no-store" });
});
