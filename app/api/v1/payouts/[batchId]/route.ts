import { getPayoutBatch } from "@/lib/domain/payouts/payout-view";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/v1/payouts/:batchId — the batch with every item; another key's batch is NOT_FOUND. */
export const GET = withApiKey({ scope: "payouts", browser: false }, async ({ db, apiKey, params }) =>
  ok(await getPayoutBatch(db, { apiKeyId: apiKey.id }, parseUuid(params.batchId, "batchId"))),
);

export const OPTIONS = noCorsPreflight();
