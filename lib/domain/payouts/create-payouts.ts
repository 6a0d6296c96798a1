/**
 * POST /api/v1/payouts: the batch is recorded (with the request's Idempotency-Key record, in one
 * transaction), then its chunks are recorded and sent at once, like a withdrawal; whatever is
 * left (a node down, the wallet waiting for gas, a restart) the tend-ledger job resumes.
 */

import { audit, byApiKey } from "../../accounts/audit/audit-origin";
import { log } from "../../base/log";
import type { Db } from "../../db";
import type { ApiKey } from "../../db/schema";
import { errorText } from "../../engine/chain/rpc-errors";
import { type IdempotentRequest, runIdempotent } from "../idempotency/idempotency";
import { getPayoutBatch, type PayoutBatchView, toBatchView, tokenFacts } from "./payout-view";
import { recordPayoutBatch } from "./record-batch";
import type { PayoutRequestInput } from "./schemas";
import { sendPayoutBatch } from "./send-batch";

export const PAYOUT_SCOPE = "payouts";

export async function createPayouts(
  db: Db,
  /** `createdBy`: the member behind the key — the batch is their request (docs/design.md §26). */
  apiKey: Pick<ApiKey, "id" | "userId" | "name" | "prefix" | "createdBy">,
  input: PayoutRequestInput,
  idempotency: { key: string; body: unknown } | null,
  address: string | null = null,
): Promise<{ view: PayoutBatchView; replayed: boolean }> {
  const requester = { accountId: apiKey.userId, apiKeyId: apiKey.id, requestedBy: apiKey.createdBy };
  const record = async (tx: Db) => {
    const batch = await recordPayoutBatch(tx, requester, input, { awaitingApproval: false, approvalsApply: true });
    await audit(tx, byApiKey(apiKey, address), {
      action: "payout.requested",
      target: { type: "payout_batch", id: batch.id },
      after: { itemCount: batch.itemCount, total: batch.total.toString(), tokenId: batch.tokenId, status: batch.status },
    });
    return { status: 201, body: toBatchView(batch, await tokenFacts(tx, batch.tokenId), []) };
  };
  const request: IdempotentRequest | null = idempotency && { owner: { apiKeyId: apiKey.id }, scope: PAYOUT_SCOPE, ...idempotency };
  const result = request ? await runIdempotent(db, request, record) : { ...(await record(db)), replayed: false };
  const batchId = result.body.batchId;
  if (!result.replayed && result.body.status !== "awaiting_approval") {
    try {
      await sendPayoutBatch(db, batchId);
    } catch (error) {
      // Recorded: the job sends what is left. The answer shows the batch as it stands.
      log.warn({ batchId, err: errorText(error) }, "payout batch recorded; sending continues in the background");
    }
  }
  return { view: await getPayoutBatch(db, { apiKeyId: apiKey.id }, batchId), replayed: result.replayed };
}
