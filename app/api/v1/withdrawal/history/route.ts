import { parseWith } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/http/handlers";
import { withdrawalHistoryQuerySchema } from "@/lib/withdrawals/schemas";
import { listWithdrawals } from "@/lib/withdrawals/withdrawal-view";

/** GET /api/v1/withdrawal/history?page&limit&status → {items, meta}, newest first. */
export const GET = withApiKey({ scope: "withdrawals", browser: false }, async ({ req, db, apiKey }) => {
  const query = parseWith(withdrawalHistoryQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listWithdrawals(db, apiKey.id, query));
});

export const OPTIONS = noCorsPreflight();
