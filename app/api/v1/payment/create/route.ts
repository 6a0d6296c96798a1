import { requireScope } from "@/lib/api-keys/scopes";
import { parseWith, readJsonObject } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { corsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseIdempotencyKey, runIdempotent } from "@/lib/idempotency/idempotency";
import { createPaymentSession } from "@/lib/payments/create-session";
import { depositAddressPool } from "@/lib/payments/deposit-address-pool";
import { createPaymentSchema } from "@/lib/payments/schemas";

/** POST /api/v1/payment/create → 201 PaymentSession; `Idempotency-Key` replays the first answer. */
export const POST = withApiKey({ scope: "payments:write", browser: true }, async ({ req, db, apiKey }) => {
  const body = await readJsonObject(req);
  const input = parseWith(createPaymentSchema, body);
  // Choosing where the money goes is a payout power: a publishable key (public by design) may not.
  if (input.merchantWallet !== undefined) requireScope(apiKey, "payouts", "set merchantWallet");
  const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
  const origin = req.headers.get("origin");
  if (key === null) return ok(await createPaymentSession(db, apiKey, input, origin), 201);
  // The deposit address is taken before the transaction opens; a replay hands it back unused.
  const result = await depositAddressPool(db).use(
    (deposit) =>
      runIdempotent(db, { owner: { apiKeyId: apiKey.id }, scope: "payment.create", key, body }, async (tx) => ({
        status: 201,
        body: await createPaymentSession(tx, apiKey, input, origin, deposit),
      })),
    (result) => !result.replayed,
  );
  return ok(result.body, result.status, result.replayed ? { "idempotent-replayed": "true" } : undefined);
});

export const OPTIONS = corsPreflight("POST");
