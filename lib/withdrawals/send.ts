import { and, eq } from "drizzle-orm";
import type { Db } from "../db";
import { idempotencyRecords, type ApiKey } from "../db/schema";
import { AppError } from "../errors";
import { runIdempotent } from "../http/idempotency";
import { broadcastWithdrawal } from "./confirm-withdrawals";
import type { SendWithdrawalInput } from "./schemas";
import { recordWithdrawal } from "./send-withdrawal";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

/**
 * POST /withdrawal/send: record (committed, with its idempotency record when a key is given),
 * then broadcast. The broadcast is outside the recording transaction on purpose: a transaction
 * must never reach the chain without its record. A node that refuses the transaction for good
 * fails the withdrawal and forgets the idempotency record, so the request can be retried.
 */
export async function sendWithdrawal(
  db: Db,
  apiKey: Pick<ApiKey, "id" | "userId">,
  input: SendWithdrawalInput,
  idempotency: { key: string; body: unknown } | null,
): Promise<{ view: WithdrawalView; replayed: boolean }> {
  const record = async (tx: Db) => {
    const recorded = await recordWithdrawal(tx, apiKey, input);
    return { status: 201, body: toWithdrawalView(recorded.withdrawal, { symbol: recorded.tokenSymbol, decimals: recorded.tokenDecimals }), recorded };
  };
  let view: WithdrawalView;
  let withdrawal;
  if (idempotency === null) {
    const result = await record(db);
    view = result.body;
    withdrawal = result.recorded.withdrawal;
  } else {
    let recorded: Awaited<ReturnType<typeof record>>["recorded"] | undefined;
    const result = await runIdempotent(db, { apiKeyId: apiKey.id, scope: "withdrawal.send", key: idempotency.key, body: idempotency.body }, async (tx) => {
      const done = await record(tx);
      recorded = done.recorded;
      return { status: done.status, body: done.body };
    });
    if (result.replayed || !recorded) return { view: result.body, replayed: true };
    view = result.body;
    withdrawal = recorded.withdrawal;
  }

  const outcome = await broadcastWithdrawal(db, withdrawal);
  if (outcome === "refused") {
    if (idempotency) {
      await db
        .delete(idempotencyRecords)
        .where(and(eq(idempotencyRecords.apiKeyId, apiKey.id), eq(idempotencyRecords.scope, "withdrawal.send"), eq(idempotencyRecords.key, idempotency.key)));
    }
    throw new AppError("BLOCKCHAIN_ERROR", `the network refused the transaction; withdrawal ${withdrawal.id} failed and nothing was sent`);
  }
  return { view, replayed: false };
}
