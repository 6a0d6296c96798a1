import { requireCreatorPermission, requireScope } from "@/lib/accounts/api-keys/scopes";
import { parseIdempotencyKey } from "@/lib/domain/idempotency/idempotency";
import { createPaymentSessionOnce } from "@/lib/domain/payments/create-session-once";
import { assertOnePrice, createFiatPaymentSchema, createPaymentSchema } from "@/lib/domain/payments/schemas";
import { parseWith, readJsonObject } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/web/http/handlers";

/** POST /api/v1/payment/create → 201 PaymentSession; `Idempotency-Key` replays the first answer. */
export const POST = withApiKey({ scope: "payments:write", browser: true }, async ({ req, db, apiKey }) => {
  const body = await readJsonObject(req);
  // A token amount (the seed's body), or a fiat price paid in any accepted token (docs/design.md §23).
  assertOnePrice(body);
  const input = "currency" in body ? parseWith(createFiatPaymentSchema, body) : parseWith(createPaymentSchema, body);
  // Choosing where the money goes is a payout power: a publishable key (public by design) may not,
  // nor a key whose maker may not choose payout targets themself (docs/design.md §26).
  if (input.merchantWallet !== undefined) {
    requireScope(apiKey, "payouts", "set merchantWallet");
    requireCreatorPermission(apiKey, "payout-targets", "choose where a payment's money goes (merchantWallet)");
  }
  const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
  const idempotency = key === null ? null : { key, body };
  const { session, replayed } = await createPaymentSessionOnce(db, apiKey, input, req.headers.get("origin"), idempotency);
  return ok(session, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
});

export const OPTIONS = corsPreflight("POST");
