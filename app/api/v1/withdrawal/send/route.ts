import { parseIdempotencyKey } from "@/lib/domain/idempotency/idempotency";
import { sendWithdrawalSchema } from "@/lib/domain/withdrawals/schemas";
import { sendWithdrawal } from "@/lib/domain/withdrawals/send";
import { parseWith, readJsonObject } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";

/** POST /api/v1/withdrawal/send {domainId, tokenId, toAddress, amount} → 201 {withdrawalId, txHash, …, status:"submitted"} */
export const POST = withApiKey({ scope: "withdrawals", browser: false }, async ({ req, db, apiKey }) => {
  const body = await readJsonObject(req);
  const input = parseWith(sendWithdrawalSchema, body);
  const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
  const { view, replayed } = await sendWithdrawal(db, apiKey, input, key === null ? null : { key, body }, clientAddress(req.headers));
  return ok(view, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
});

export const OPTIONS = noCorsPreflight();
