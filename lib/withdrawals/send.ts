import type { Address } from "viem";
import type { Db } from "../db";
import { withdrawals, type ApiKey, type Withdrawal } from "../db/schema";
import { ensureGasBalance } from "../chain/gas-top-up";
import { AppError } from "../errors";
import { runIdempotent } from "../http/idempotency";
import { eq } from "drizzle-orm";
import { broadcastWithdrawal, settleOne } from "./confirm-withdrawals";
import type { SendWithdrawalInput } from "./schemas";
import { recordWithdrawal, ShortOfGasError } from "./send-withdrawal";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

const GAS_ROUNDS = 5;
/** How long a request waits for a refused broadcast's nonce to settle before answering "submitted". */
const SETTLE_WAIT_MS = 10_000;

/** Sends of this process waiting for gas, per wallet: one top-up covers all of them. */
const waitingForGas = new Map<Address, number>();

/**
 * POST /withdrawal/send: record (committed, with its idempotency record when a key is given),
 * then broadcast. The broadcast is outside the recording transaction on purpose: a transaction
 * must never reach the chain without its record. When the node refuses it, the nonce is filled
 * and the withdrawal stays submitted until the chain settles it; only "nothing was sent" after
 * that settles answers BLOCKCHAIN_ERROR (and frees the Idempotency-Key).
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
      await topUpFor(db, error);
    }
  }
  const { view, withdrawal } = outcome;
  if (!withdrawal) return { view, replayed: true };

  if ((await broadcastWithdrawal(db, withdrawal)) === "refused") {
    const settled = await waitForSettlement(db, withdrawal.id);
    if (settled?.status === "failed") {
      throw new AppError("BLOCKCHAIN_ERROR", `${settled.failureReason ?? "the network refused the transaction"} (withdrawal ${withdrawal.id} failed)`);
    }
  }
  return { view, replayed: false };
}

/**
 * Outside every transaction: a broadcast top-up must never be rolled back. The top-up covers the
 * wallet's unmined sends and the sends of this process waiting for gas right now, each at its
 * capped gas limit — never more.
 */
async function topUpFor(db: Db, shortage: ShortOfGasError): Promise<void> {
  const others = waitingForGas.get(shortage.wallet) ?? 0;
  waitingForGas.set(shortage.wallet, others + 1);
  try {
    await ensureGasBalance(db, shortage.network, shortage.wallet, shortage.neededWei + shortage.perSendWei * BigInt(others));
  } finally {
    const left = (waitingForGas.get(shortage.wallet) ?? 1) - 1;
    if (left > 0) waitingForGas.set(shortage.wallet, left);
    else waitingForGas.delete(shortage.wallet);
  }
}

async function waitForSettlement(db: Db, withdrawalId: string): Promise<Withdrawal | undefined> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const [current] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
    if (!current || current.status !== "submitted") return current;
    if (Date.now() > deadline) return current;
    await settleOne(db, current).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 250));
  }
}
