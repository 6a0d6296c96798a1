/**
 * Settling withdrawal rows — a merchant's withdrawal, and a refund's payout — as the ledger
 * settles their nonce. lib/domain/transfers records and sends each (reserve → record → send) and
 * says how it settled (settle-transfer.ts: the ledger's answer at a confirmed depth); this file
 * turns that answer into a fact of the row and hands it to its one writer (withdrawal-records.ts),
 * which decides with withdrawal-state.ts and tells the merchant (withdrawal.* webhooks). Whoever
 * follows a withdrawal (a refund) is told through the injected `onSettled`, wired in
 * lib/ops/jobs/steps.ts: this folder imports none of them.
 */

import { eq } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { isRecordedWithdrawal, type Withdrawal, withdrawals } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { errorText } from "../../engine/chain/rpc-errors";
import { refusedBroadcast, settleTransfer, type TransferOutcome } from "../transfers/settle-transfer";
import { applyWithdrawalFact, type OnSettled } from "./withdrawal-records";
import { type NonceFacts, type Settlement, settleWithdrawal } from "./withdrawal-state";

/** How long a request waits for a refused broadcast's nonce to settle before answering "submitted". */
const SETTLE_WAIT_MS = 10_000;

/** Job step: submitted → completed / failed, as the ledger settles each withdrawal's nonce. */
export async function confirmWithdrawals(
  db: Db,
  options: { onSettled?: OnSettled } = {},
): Promise<{ completed: number; failed: number; pending: number }> {
  const open = await db.select().from(withdrawals).where(eq(withdrawals.status, "submitted"));
  const counts = { completed: 0, failed: 0, pending: 0 };
  for (const withdrawal of open) {
    try {
      const settlement = await settleOne(db, withdrawal, options);
      counts[settlement.status === "submitted" ? "pending" : settlement.status]++;
    } catch (error) {
      counts.pending++;
      log.warn({ withdrawalId: withdrawal.id, err: errorText(error) }, "withdrawal check failed; retrying");
    }
  }
  return counts;
}

/** Asks the ledger how the withdrawal's nonce stands and has the writer record a final answer. */
export async function settleOne(db: Db, withdrawal: Withdrawal, options: { onSettled?: OnSettled } = {}): Promise<Settlement> {
  const network = networkConfig(withdrawal.network);
  // Not recorded (awaiting approval): no nonce to settle.
  if (!network || !isRecordedWithdrawal(withdrawal)) return { status: "submitted" };
  const ref = { network: withdrawal.network, wallet: withdrawal.fromAddress, nonce: withdrawal.nonce };
  const outcome = await settleTransfer(db, ref, network);
  const facts = { nonce: nonceFacts(outcome), broadcastError: refusedBroadcast(outcome, withdrawal.chainTxId) };
  const settlement = settleWithdrawal(facts);
  if (settlement.status === "submitted" && settlement.needsOperator) {
    log.error(
      { withdrawalId: withdrawal.id, wallet: withdrawal.fromAddress, nonce: withdrawal.nonce },
      "a withdrawal's nonce was used by a transaction the service did not sign; it stays submitted until an operator checks the wallet",
    );
  }
  if (settlement.status !== "submitted") {
    const winner = outcome.state === "settled" ? outcome.winner : null;
    await applyWithdrawalFact(db, withdrawal, { kind: "nonce", ...facts }, { winner, onSettled: options.onSettled });
  }
  return settlement;
}

/**
 * After a refused broadcast (lib/domain/transfers sendRecorded: its nonce is being filled): waits up to
 * SETTLE_WAIT_MS for the withdrawal to settle, settling it as the job would. Its current row.
 */
export async function awaitSettlement(db: Db, withdrawalId: string): Promise<Withdrawal | undefined> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const [current] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
    if (current?.status !== "submitted") return current;
    if (Date.now() > deadline) return current;
    await settleOne(db, current).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function nonceFacts(outcome: TransferOutcome): NonceFacts {
  if (outcome.state !== "settled") return { state: outcome.state };
  const { winner } = outcome;
  return {
    state: "settled",
    by: winner.kind === "cancel" ? "cancel" : "withdrawal",
    success: winner.status === "mined",
    confirmed: outcome.confirmed,
  };
}
