import { and, eq } from "drizzle-orm";
import type { Db } from "../db";
import { idempotencyRecords, type ApiKey, type Withdrawal } from "../db/schema";
import { ensureGasBalance } from "../chain/gas-top-up";
import { AppError } from "../errors";
import { runIdempotent } from "../http/idempotency";
import { broadcastWithdrawal } from "./confirm-withdrawals";
import type { SendWithdrawalInput } from "./schemas";
import { recordWithdrawal, ShortOfGasError } from "./send-withdrawal";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

const GAS_ROUNDS = 5;
const BURST_HEADROOM = 50n;

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
  const attempt = async (): Promise<{ view: WithdrawalView; withdrawal?: Withdrawal }> => {
    if (idempotency === null) {
      const result = await record(db);
      return { view: result.body, withdrawal: result.recorded.withdrawal };
    }
    let recorded: Withdrawal | undefined;
    const result = await runIdempotent(db, { apiKeyId: apiKey.id, scope: "withdrawal.send", key: idempotency.key, body: idempotency.body }, async (tx) => {
      const done = await record(tx);
      recorded = done.recorded.withdrawal;
      return { status: done.status, body: done.body };
    });
    return { view: result.body, withdrawal: result.replayed ? undefined : recorded };
  };

  let outcome: { view: WithdrawalView; withdrawal?: Withdrawal } | undefined;
  for (let round = 1; outcome === undefined; round++) {
    try {
      outcome = await attempt();
    } catch (error) {
      if (!(error instanceof ShortOfGasError)) throw error;
      if (round >= GAS_ROUNDS) throw new AppError("BLOCKCHAIN_ERROR", `not enough BNB for gas in the withdrawal wallet ${error.wallet}`);
      // Outside every transaction: a broadcast top-up must never be rolled back.
      // Enough for this send, those not yet mined, and a burst after them: one top-up, not one each.
      await ensureGasBalance(db, error.network, error.wallet, error.neededWei + error.perSendWei * BURST_HEADROOM, 1n);
    }
  }
  const { view, withdrawal } = outcome;
  if (!withdrawal) return { view, replayed: true };

  const broadcast = await broadcastWithdrawal(db, withdrawal);
  if (broadcast === "refused") {
    if (idempotency) {
      await db
        .delete(idempotencyRecords)
        .where(and(eq(idempotencyRecords.apiKeyId, apiKey.id), eq(idempotencyRecords.scope, "withdrawal.send"), eq(idempotencyRecords.key, idempotency.key)));
    }
    throw new AppError("BLOCKCHAIN_ERROR", `the network refused the transaction; withdrawal ${withdrawal.id} failed and nothing was sent`);
  }
  return { view, replayed: false };
}
