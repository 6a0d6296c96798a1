import { parseWith, readJsonObject } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/http/handlers";
import { parseIdempotencyKey } from "@/lib/idempotency/idempotency";
import { sendWithdrawalSchema } from "@/lib/withdrawals/schemas";
import { sendWithdrawal } from "@/lib/withdrawals/send";

/** POST /api/v1/withdrawal/send {domainId, tokenId, toAddress, amount} → 201 {withdrawalId, txHash, …, status:"submitted"} */
export const POST = withApiKey({ scope: "withdrawals", browser: false }, async ({ req, db, apiKey }) => {
  const body = await readJsonObject(req);
  const input = parseWith(sendWithdrawalSchema, body);
  const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
  const { view, replayed } = await sendWithdrawal(db, apiKey, input, key === null ? null : { key, body });
  return ok(view, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
});

export const OPTIONS = noCorsPreflight();
