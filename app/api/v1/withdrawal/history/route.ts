import { withdrawalHistoryQuerySchema } from "@/lib/domain/withdrawals/schemas";
import { listWithdrawals } from "@/lib/domain/withdrawals/withdrawal-view";
import { parseWith } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";

/** GET /api/v1/withdrawal/history?page&limit&status → {items, meta}, or ?cursor&… → {items, nextCursor, meta}: newest first. */
export const GET = withApiKey({ scope: "withdrawals", browser: false }, async ({ req, db, apiKey }) => {
  const query = parseWith(withdrawalHistoryQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listWithdrawals(db, apiKey.id, query));
});

export const OPTIONS = noCorsPreflight();
