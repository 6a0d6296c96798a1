import { refundClaimPage } from "@/lib/domain/refunds/claim-refund";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/refund/:refundId (public, by its unguessable id): what the claim page shows. */
export const GET = withErrors(async ({ db, params }) =>
  ok(await refundClaimPage(db, parseUuid(params.refundId, "refundId")), 200, { "cache-control": "no-store" }),
);
