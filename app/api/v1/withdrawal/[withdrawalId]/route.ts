import { ok } from "@/lib/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseUuid } from "@/lib/http/params";
import { getWithdrawal } from "@/lib/withdrawals/withdrawal-view";

/** GET /api/v1/withdrawal/:withdrawalId — another key's withdrawal is NOT_FOUND. */
export const GET = withApiKey({ scope: "withdrawals", browser: false }, async ({ db, apiKey, params }) =>
  ok(await getWithdrawal(db, apiKey.id, parseUuid(params.withdrawalId, "withdrawalId"))),
);

export const OPTIONS = noCorsPreflight();
