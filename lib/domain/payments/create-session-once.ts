/**
 * POST /payment/create behind its Idempotency-Key, as refunds and withdrawals apply theirs: in
 * lib, inside the transaction that records the session (lib/domain/idempotency).
 */

import type { Db } from "../../db";
import type { ApiKey } from "../../db/schema";
import { runIdempotent } from "../idempotency/idempotency";
import { type CreatedSession, createPaymentSession } from "./create-session";
import { type DepositAddress, depositAddressPool } from "./deposit-address-pool";
import { prepareFiatPrice } from "./fiat-price";
import type { CreateFiatPaymentInput, CreatePaymentInput } from "./schemas";

/** The idempotency scope of POST /payment/create. */
export const PAYMENT_CREATE_SCOPE = "payment.create";

/**
 * Creates the session once per key and body (`idempotency` null: every request creates one). The
 * deposit address is taken before the transaction opens; a replay hands it back unused.
 */
export async function createPaymentSessionOnce(
  db: Db,
  apiKey: Pick<ApiKey, "id" | "userId">,
  input: CreatePaymentInput | CreateFiatPaymentInput,
  origin: string | null,
  idempotency: { key: string; body: unknown } | null,
): Promise<{ session: CreatedSession; replayed: boolean }> {
  const create = await preparedCreate(db, apiKey, input, origin);
  if (idempotency === null) return { session: await depositAddressPool(db).use((deposit) => create(db, deposit)), replayed: false };
  const request = { owner: { apiKeyId: apiKey.id }, scope: PAYMENT_CREATE_SCOPE, ...idempotency };
  const result = await depositAddressPool(db).use(
    (deposit) => runIdempotent(db, request, async (tx) => ({ status: 201, body: await create(tx, deposit) })),
    (result) => !result.replayed,
  );
  return { session: result.body, replayed: result.replayed };
}

/**
 * The create, with a fiat price's quotes read from the chain first (never inside the transaction).
 * Their refusal is kept and thrown by the create itself, which an idempotent replay never runs: a
 * replay answers the first response even once a feed went stale.
 */
async function preparedCreate(
  db: Db,
  apiKey: Pick<ApiKey, "id" | "userId">,
  input: CreatePaymentInput | CreateFiatPaymentInput,
  origin: string | null,
): Promise<(db: Db, deposit: DepositAddress) => Promise<CreatedSession>> {
  if (!("currency" in input)) return (tx, deposit) => createPaymentSession(tx, apiKey, input, origin, deposit);
  const price = await prepareFiatPrice(db, apiKey.userId, input).then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return async (tx, deposit) => {
    if (!price.ok) throw price.error;
    return createPaymentSession(tx, apiKey, { ...input, price: price.value }, origin, deposit);
  };
}
