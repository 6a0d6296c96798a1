import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import { ensureGasBalance } from "../chain/gas-top-up";
import type { Db } from "../db";
import { isUniqueViolation } from "../db/errors";
import { type ApiKey, tokens, type User, type Withdrawal, withdrawals } from "../db/schema";
import { AppError } from "../errors";
import { runIdempotent } from "../idempotency/idempotency";
import { chargeForDomainWallet } from "../ledger/charges";
import { requireSecondFactor } from "../users/two-factor";
import { broadcastWithdrawal, settleOne } from "./confirm-withdrawals";
import { withdrawalRefusal } from "./reasons";
import type { SendWithdrawalInput } from "./schemas";
import { recordWithdrawal, ShortOfGasError, type WithdrawalSender } from "./send-withdrawal";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

const GAS_ROUNDS = 5;
/** How long a request waits for a refused broadcast's nonce to settle before answering "submitted". */
const SETTLE_WAIT_MS = 10_000;

/** Sends of this process waiting for gas, per wallet: one top-up covers all of them. */
const waitingForGas = new Map<Address, number>();

export type Recorded = { view: WithdrawalView; withdrawal?: Withdrawal };

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
  const sender: WithdrawalSender = { userId: apiKey.userId, apiKeyId: apiKey.id };
  return viewOf(
    recordAndBroadcast(db, async (afterTopUp) => {
      if (idempotency === null) return recordAndView(db, sender, input, afterTopUp);
      let recorded: Withdrawal | undefined;
      const result = await runIdempotent(
        db,
        { apiKeyId: apiKey.id, scope: "withdrawal.send", key: idempotency.key, body: idempotency.body },
        async (tx) => {
          const done = await recordAndView(tx, sender, input, afterTopUp);
          recorded = done.withdrawal;
          return { status: 201, body: done.view };
        },
      );
      return { view: result.body, withdrawal: result.replayed ? undefined : recorded };
    }),
  );
}

/**
 * The dashboard's send: the form's `requestId` makes a double click (or a resubmitted form) send
 * once — the second request answers with the first withdrawal. With two-factor sign-in on, a
 * current code first (`code`), or nothing is recorded.
 */
export async function sendWithdrawalFromDashboard(
  db: Db,
  user: User,
  input: SendWithdrawalInput,
  requestId: string,
  code?: string,
): Promise<{ view: WithdrawalView; replayed: boolean }> {
  const userId = user.id;
  const sender: WithdrawalSender = { userId, apiKeyId: null, clientRequestId: requestId };
  const existing = async (): Promise<Recorded | null> => {
    const [row] = await db
      .select({ withdrawal: withdrawals, token: { symbol: tokens.symbol, decimals: tokens.decimals } })
      .from(withdrawals)
      .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
      .where(and(eq(withdrawals.userId, userId), eq(withdrawals.clientRequestId, requestId)));
    return row ? { view: toWithdrawalView(row.withdrawal, row.token) } : null;
  };
  // The same form again (a double click) answers with its withdrawal; only a new one needs the code.
  const first = await existing();
  if (first) return { view: first.view, replayed: true };
  await requireSecondFactor(db, user, code);
  return viewOf(
    recordAndBroadcast(db, async (afterTopUp) => {
      const earlier = await existing();
      if (earlier) return earlier;
      try {
        return await recordAndView(db, sender, input, afterTopUp);
      } catch (error) {
        // The same form submitted twice at once: the other request recorded it (and its send may
        // already have changed the balance this one checked). Answer with that withdrawal.
        const other = await existing();
        if (other) return other;
        if (isUniqueViolation(error)) throw new AppError("INTERNAL_ERROR", "the withdrawal was recorded twice at once; reload the page");
        throw error;
      }
    }),
  );
}

export async function recordAndView(db: Db, sender: WithdrawalSender, input: SendWithdrawalInput, afterTopUp: boolean): Promise<Recorded> {
  const recorded = await recordWithdrawal(db, sender, input, { afterTopUp });
  return {
    view: toWithdrawalView(recorded.withdrawal, { symbol: recorded.tokenSymbol, decimals: recorded.tokenDecimals }),
    withdrawal: recorded.withdrawal,
  };
}

/** A withdrawal request's answer: a recorded withdrawal was new; none means the first answer replayed. */
async function viewOf(outcome: Promise<Recorded>): Promise<{ view: WithdrawalView; replayed: boolean }> {
  const { view, withdrawal } = await outcome;
  return { view, replayed: !withdrawal };
}

/**
 * Records (with `attempt`) and broadcasts one withdrawal, topping the wallet up with gas first when
 * it lacks it. `attempt(afterTopUp)`: true once this request had the wallet topped up (its gas is
 * spent: no budget check again). Refunds send through here too.
 */
export async function recordAndBroadcast<T extends { withdrawal?: Withdrawal }>(
  db: Db,
  attempt: (afterTopUp: boolean) => Promise<T>,
): Promise<T> {
  let outcome: T | undefined;
  for (let round = 1; outcome === undefined; round++) {
    try {
      outcome = await attempt(round > 1);
    } catch (error) {
      if (!(error instanceof ShortOfGasError)) throw error;
      if (round >= GAS_ROUNDS)
        throw withdrawalRefusal(
          "BLOCKCHAIN_ERROR",
          "wallet-short-of-gas",
          `not enough BNB for gas in the withdrawal wallet ${error.wallet}`,
        );
      await topUpFor(db, error);
    }
  }
  const { withdrawal } = outcome;
  if (withdrawal && (await broadcastWithdrawal(db, withdrawal)) === "refused") {
    const settled = await waitForSettlement(db, withdrawal.id);
    if (settled?.status === "failed") {
      throw withdrawalRefusal(
        "BLOCKCHAIN_ERROR",
        "withdrawal-failed",
        `${settled.failureReason ?? "the network refused the transaction"} (withdrawal ${withdrawal.id} failed)`,
      );
    }
  }
  return outcome;
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
    const chargedTo = await chargeForDomainWallet(db, shortage.domainId);
    await ensureGasBalance(db, shortage.network, shortage.wallet, shortage.neededWei + shortage.perSendWei * BigInt(others), chargedTo);
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
    if (current?.status !== "submitted") return current;
    if (Date.now() > deadline) return current;
    await settleOne(db, current).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 250));
  }
}
