import { byApiKey } from "@/lib/accounts/audit/audit-origin";
import { parseIdempotencyKey } from "@/lib/domain/idempotency/idempotency";
import { createRefund } from "@/lib/domain/refunds/create-refund";
import { createRefundSchema } from "@/lib/domain/refunds/schemas";
import { parseWith, readJsonObject } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { noCorsPreflight, withApiKey } from "@/lib/web/http/handlers";
import { parseUuid } from "@/lib/web/http/params";

/**
 * POST /api/v1/payment/:sessionId/refund {amount?, toAddress?} → 201 Refund, with claimUrl (its
 * secret) for a claim; `Idempotency-Key` replays the first answer without the link.
 */
export const POST = withApiKey({ scope: "refunds", browser: false }, async ({ req, db, apiKey, params }) => {
  const sessionId = parseUuid(params.sessionId, "sessionId");
  const body = await readJsonObject(req);
  const input = parseWith(createRefundSchema, body);
  const key = parseIdempotencyKey(req.headers.get("idempotency-key"));
  const idempotency = key === null ? null : { key, body: { sessionId, ...body } };
  const { view, replayed } = await createRefund(
    db,
    // A request made with a key is its creator's (docs/design.md §26): they cannot approve it.
    { scope: { apiKeyId: apiKey.id }, idempotency, member: apiKey.createdBy, origin: byApiKey(apiKey, clientAddress(req.headers)) },
    sessionId,
    input,
  );
  return ok(view, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
});

export const OPTIONS = noCorsPreflight();
