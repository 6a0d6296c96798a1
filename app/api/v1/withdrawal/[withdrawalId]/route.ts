import { getWithdrawal } from "@/lib/domain/withdrawals/withdrawal-view";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/** GET /api/v1/withdrawal/:withdrawalId — another key's withdrawal is NOT_FOUND. */
export const GET = withApiKey({ scope: "withdrawals", browser: false }, async ({ db, apiKey, params }) =>
  ok(await getWithdrawal(db, apiKey.id, parseUuid(params.withdrawalId, "withdrawalId"))),
);

export const OPTIONS = noCorsPreflight();
