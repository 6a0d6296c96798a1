import { parseWith } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/http/handlers";
import { listPaymentHistory } from "@/lib/payments/list-history";
import { paymentHistoryQuerySchema } from "@/lib/payments/schemas";

/** GET /api/v1/payment/history?page&limit&status → {items, meta}, newest first. */
export const GET = withApiKey({ scope: "payments:read", browser: true }, async ({ req, db, apiKey }) => {
  const query = parseWith(paymentHistoryQuerySchema, Object.fromEntries(req.nextUrl.searchParams));
  return ok(await listPaymentHistory(db, apiKey.id, query));
});

export const OPTIONS = corsPreflight("GET");
