/**
 * POST /payment/create behind its Idempotency-Key, as refunds and withdrawals apply theirs: in
 * lib, inside the transaction that records the session (lib/domain/idempotency).
 */

import type { Db } from "../../db";
import type { ApiKey } from "../../db/schema";
import { runIdempotent } from "../idempotency/idempotency";
import { type CreatedSession, createPaymentSession } from "./create-session";
import { depositAddressPool } from "./deposit-address-pool";
import type { CreatePaymentInput } from "./schemas";

/** The idempotency scope of POST /payment/create. */
export const PAYMENT_CREATE_SCOPE = "payment.create";

/**
 * Creates the session once per key and body (`idempotency` null: every request creates one). The
 * deposit address is taken before the transaction opens; a replay hands it back unused.
 */
export async function createPaymentSessionOnce(
  db: Db,
  apiKey: Pick<ApiKey, "id" | "userId">,
  input: CreatePaymentInput,
  origin: string | null,
  idempotency: { key: string; body: unknown } | null,
): Promise<{ session: CreatedSession; replayed: boolean }> {
  if (idempotency === null) return { session: await createPaymentSession(db, apiKey, input, origin), replayed: false };
  const request = { owner: { apiKeyId: apiKey.id }, scope: PAYMENT_CREATE_SCOPE, ...idempotency };
  const result = await depositAddressPool(db).use(
    (deposit) =>
      runIdempotent(db, request, async (tx) => ({ status: 201, body: await createPaymentSession(tx, apiKey, input, origin, deposit) })),
    (result) => !result.replayed,
  );
  return { session: result.body, replayed: result.replayed };
}
