import { parseIdempotencyKey } from "@/lib/domain/idempotency/idempotency";
import { createPayouts } from "@/lib/domain/payouts/create-payouts";
import { listPayoutBatches } from "@/lib/domain/payouts/payout-view";
import { payoutListQuerySchema, payoutRequestSchema } from "@/lib/domain/payouts/schemas";
import { parseWith, readJsonObject } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";

/** A batch of up to 500 items with references of 200 characters. */
const MAX_PAYOUT_BODY_BYTES = 256 * 1024;

/** POST /api/v1/payouts {domainId, tokenId, items:[{toAddress, amount, reference}]} → 201 the batch with its items. */
export const POST = withApiKey({ scope: "payouts", browser: false }, async ({ req, db, apiKey }) => {
  const body = await readJsonObject(req, MAX_PAYOUT_BODY_BYTES);
  const input = parseWith(payoutRequestSchema, body);
  const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
  const { view, replayed } = await createPayouts(db, apiKey, input, key === null ? null : { key, body }, clientAddress(req.headers));
  return ok(view, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
});

/** GET /api/v1/payouts?limit&cursor → the key's batches (without items), newest first. */
export const GET = withApiKey({ scope: "payouts", browser: false }, async ({ req, db, apiKey }) => {
  const query = parseWith(payoutListQuerySchema, Object.fromEntries(new URL(req.url).searchParams));
  return ok(await listPayoutBatches(db, apiKey.id, { limit: query.limit, cursor: query.cursor }));
});

export const OPTIONS = noCorsPreflight();
