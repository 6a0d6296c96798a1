import { issueClaimLink } from "@/lib/domain/refunds/claim-link";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/**
 * POST /api/v1/refund/:refundId/claim-link → Refund with a new claimUrl (the old link stops
 * working). Only a key whose creator created the refund; only while it awaits the payer's address.
 */
export const POST = withApiKey({ scope: "refunds", browser: false }, async ({ req, db, apiKey, params }) =>
  ok(await issueClaimLink(db, { apiKey, address: clientAddress(req.headers) }, parseUuid(params.refundId, "refundId"))),
);

export const OPTIONS = noCorsPreflight();
