/**
 * Broadcasting and settling withdrawals through the ledger (lib/ledger). A withdrawal's
 * transaction is a ledger row; the ledger re-sends, re-prices and settles it like every other
 * transaction, and this file only turns the ledger's answer into the withdrawal's status.
 */

import { and, eq, sql } from "drizzle-orm";
import { confirmedBlock } from "../chain/confirmations";
import { networkConfig, publicClientFor } from "../chain/networks";
import { errorText } from "../chain/rpc-errors";
import type { NetworkConfig } from "../config";
import type { Db } from "../db";
import { type ChainTransaction, chainTransactions, idempotencyRecords, type Withdrawal, withdrawals } from "../db/schema";
import { broadcastRecorded, REFUSED_PREFIX } from "../ledger/broadcast";
import { replaceTransaction } from "../ledger/replace";
import { type NonceOutcome, settleNonce } from "../ledger/settle";
import { log } from "../log";
import { settleRefundOf } from "../refunds/settle-refund";
import { enqueueWithdrawalEvent } from "./withdrawal-events";
import { type NonceFacts, releasesIdempotencyKey, type Settlement, settleWithdrawal, withdrawalEvent } from "./withdrawal-state";

export type BroadcastResult = "sent" | "retry-later" | "refused";

/** First broadcast; a node that refuses the bytes for good has their nonce filled at once (recorded first). */
export async function broadcastWithdrawal(db: Db, withdrawal: Withdrawal): Promise<BroadcastResult> {
  const row = await ledgerRow(db, withdrawal);
  const sent = await broadcastRecorded(db, row);
  if (sent.sent) return "sent";
  if (!sent.refusedForGood) return "retry-later";
  await replaceTransaction(db, row, "cancel");
  return "refused";
}

/** Job step: submitted → completed / failed, as the ledger settles each withdrawal's nonce. */
export async function confirmWithdrawals(db: Db): Promise<{ completed: number; failed: number; pending: number }> {
  const open = await db.select().from(withdrawals).where(eq(withdrawals.status, "submitted"));
  const counts = { completed: 0, failed: 0, pending: 0 };
  for (const withdrawal of open) {
    try {
      const settlement = await settleOne(db, withdrawal);
      counts[settlement.status === "submitted" ? "pending" : settlement.status]++;
    } catch (error) {
      counts.pending++;
      log.warn({ withdrawalId: withdrawal.id, err: errorText(error) }, "withdrawal check failed; retrying");
    }
  }
  return counts;
}

/** Asks the ledger how the withdrawal's nonce stands, decides, and records a final answer. */
export async function settleOne(db: Db, withdrawal: Withdrawal): Promise<Settlement> {
  const network = networkConfig(withdrawal.network);
  if (!network) return { status: "submitted" };
  const outcome = await settleNonce(db, { network: withdrawal.network, wallet: withdrawal.fromAddress, nonce: withdrawal.nonce });
  const own = outcome.rows.find((r) => r.id === withdrawal.chainTxId);
  const broadcastError = own?.broadcastError?.startsWith(REFUSED_PREFIX) ? own.broadcastError.slice(REFUSED_PREFIX.length) : null;
  const settlement = settleWithdrawal({
    nonce: await nonceFacts(outcome, network),
    broadcastError,
  });
  if (settlement.status === "submitted" && settlement.needsOperator) {
    log.error(
      { withdrawalId: withdrawal.id, wallet: withdrawal.fromAddress, nonce: withdrawal.nonce },
      "a withdrawal's nonce was used by a transaction the service did not sign; it stays submitted until an operator checks the wallet",
    );
  }
  if (settlement.status !== "submitted") await finish(db, withdrawal, settlement, outcome.state === "settled" ? outcome.winner : null);
  return settlement;
}

async function nonceFacts(outcome: NonceOutcome, network: NetworkConfig): Promise<NonceFacts> {
  if (outcome.state !== "settled") return { state: outcome.state };
  const { winner } = outcome;
  const confirmedUpTo = await confirmedBlock(publicClientFor(network.name), network.finality);
  return {
    state: "settled",
    by: winner.kind === "cancel" ? "cancel" : "withdrawal",
    success: winner.status === "mined",
    confirmed: winner.minedBlock !== null && BigInt(winner.minedBlock) <= confirmedUpTo,
  };
}

async function finish(
  db: Db,
  withdrawal: Withdrawal,
  settlement: Settlement & { status: "completed" | "failed" },
  winner: ChainTransaction | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const done = await tx
      .update(withdrawals)
      .set({
        status: settlement.status,
        failureReason: settlement.status === "failed" ? settlement.reason : null,
        confirmedAt: settlement.status === "completed" ? new Date() : null,
        // A re-priced copy did the transfer: its hash is the one the shop can look up.
        ...(winner && winner.kind === "withdrawal" ? { txHash: winner.txHash, gasPrice: winner.gasPrice } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(withdrawals.id, withdrawal.id), eq(withdrawals.status, "submitted")))
      .returning();
    const event = withdrawalEvent(settlement);
    if (done[0] && event) await enqueueWithdrawalEvent(tx, done[0], event);
    if (done[0]) await settleRefundOf(tx, done[0]);
    if (done.length > 0 && withdrawal.apiKeyId !== null && releasesIdempotencyKey(settlement)) {
      // Nothing was sent, and the chain says so: the shop may retry the same request with the same key.
      await tx
        .delete(idempotencyRecords)
        .where(
          and(
            eq(idempotencyRecords.apiKeyId, withdrawal.apiKeyId),
            eq(idempotencyRecords.scope, "withdrawal.send"),
            sql`${idempotencyRecords.responseBody}->>'withdrawalId' = ${withdrawal.id}`,
          ),
        );
    }
  });
}

async function ledgerRow(db: Db, withdrawal: Withdrawal): Promise<ChainTransaction> {
  const [row] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, withdrawal.chainTxId));
  if (!row) throw new Error(`withdrawal ${withdrawal.id} has no ledger row`);
  return row;
}
