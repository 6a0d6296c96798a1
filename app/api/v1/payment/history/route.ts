import { listPaymentHistory } from "@/lib/domain/payments/list-history";
import { paymentHistoryQuerySchema } from "@/lib/domain/payments/schemas";
import { parseWith } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/web/http/handlers";

/** GET /api/v1/payment/history?page&limit&status&orderId → {items, meta}, or ?cursor&… → {items, nextCursor, meta}: newest first. */
export const GET = withApiKey({ scope: "payments:read", browser: true }, async ({ req, db, apiKey }) => {
  const query = parseWith(paymentHistoryQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listPaymentHistory(db, apiKey.id, query));
});

export const OPTIONS = corsPreflight("GET");
