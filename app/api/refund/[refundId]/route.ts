import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { refundClaimPage } from "@/lib/refunds/claim-refund";

/** GET /api/refund/:refundId (public, by its unguessable id): what the claim page shows. */
export const GET = withErrors(async ({ db, params }) =>
  ok(await refundClaimPage(db, parseUuid(params.refundId, "refundId")), 200, { "cache-control": "no-store" }),
);
