import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Address, Hex, TransactionReceipt } from "viem";
import { getConfig } from "../config";
import { ensureGasBalance } from "../chain/gas-top-up";
import { keyRingFor } from "../chain/keys";
import { chainOf, networkConfig, publicClientFor } from "../chain/networks";
import { broadcastLanded, classifyRpcError, errorText, isRetryable, nodeMessage } from "../chain/rpc-errors";
import { hashOfRaw, receiptOf } from "../chain/transactions";
import type { Db } from "../db";
import { idempotencyRecords, withdrawals, type Withdrawal } from "../db/schema";
import { log } from "../log";
import { enqueueWithdrawalEvent } from "../webhooks/outbox";
import { releasesIdempotencyKey, settleWithdrawal, withdrawalEvent, type MinedFacts, type Settlement } from "./withdrawal-state";

/**
 * Broadcasting and settling withdrawals. A stored transaction is only ever re-sent as the same
 * bytes. When a node refuses it for good, its nonce would stay a hole and stall every later send
 * of the wallet, so a 0-value self-transfer is signed for the same nonce (at a higher price, so it
 * also replaces the original should that still sit in some mempool). The withdrawal stays
 * submitted until the chain says which of the two used the nonce.
 */
export type BroadcastResult = "sent" | "retry-later" | "refused";

export async function broadcastWithdrawal(db: Db, withdrawal: Withdrawal): Promise<BroadcastResult> {
  const client = publicClientFor(withdrawal.network);
  try {
    await client.request({ method: "eth_sendRawTransaction", params: [withdrawal.rawTx as Hex] });
    await db.update(withdrawals).set({ broadcastAt: new Date(), updatedAt: new Date() }).where(eq(withdrawals.id, withdrawal.id));
    return "sent";
  } catch (error) {
    const kind = classifyRpcError(error);
    // In already, or its nonce is taken (by it, or by another transaction): settling tells which.
    if (broadcastLanded(kind)) return "sent";
    if (isRetryable(kind)) return "retry-later";
    await fillNonce(db, withdrawal, nodeMessage(error).slice(0, 200));
    return "refused";
  }
}

/** Job step: submitted → completed / failed, as the chain decides; re-broadcasts what is not mined. */
export async function confirmWithdrawals(db: Db): Promise<{ completed: number; failed: number; pending: number }> {
  const open = await db.select().from(withdrawals).where(eq(withdrawals.status, "submitted"));
  const counts = { completed: 0, failed: 0, pending: 0 };
  await sendLegacyFillers(db);
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

/** Reads the chain, decides, records a final answer, and re-sends what still has to be mined. */
export async function settleOne(db: Db, withdrawal: Withdrawal): Promise<Settlement> {
  const network = networkConfig(withdrawal.network);
  if (!network) return { status: "submitted", next: "wait" };
  const client = publicClientFor(withdrawal.network);
  const wallet = withdrawal.fromAddress as Address;
  let [own, filler] = await Promise.all([receiptOf(client, withdrawal.txHash as Hex), withdrawal.fillerTxHash ? receiptOf(client, withdrawal.fillerTxHash as Hex) : null]);
  const minedCount = own || filler ? withdrawal.nonce + 1 : await client.getTransactionCount({ address: wallet });
  if (!own && !filler && minedCount > withdrawal.nonce) {
    // Mined between the two calls: the count moved, and now a receipt is there.
    [own, filler] = await Promise.all([receiptOf(client, withdrawal.txHash as Hex), withdrawal.fillerTxHash ? receiptOf(client, withdrawal.fillerTxHash as Hex) : null]);
  }
  const head = own || filler ? await client.getBlockNumber({ cacheTime: 0 }) : 0n;
  const settlement = settleWithdrawal({
    nonce: withdrawal.nonce,
    minedCount,
    withdrawal: mined(own, head),
    filler: mined(filler, head),
    hasFiller: withdrawal.fillerRawTx !== null,
    requiredConfirmations: network.confirmations,
    broadcastError: withdrawal.broadcastError,
  });
  if (settlement.status === "completed" || settlement.status === "failed") {
    await finish(db, withdrawal, settlement);
  } else if (settlement.next === "rebroadcast-withdrawal") {
    if ((await broadcastWithdrawal(db, withdrawal)) === "refused") return { status: "submitted", next: "rebroadcast-filler" };
  } else if (settlement.next === "rebroadcast-filler") {
    await sendFiller(db, withdrawal);
  }
  return settlement;
}

function mined(receipt: TransactionReceipt | null, head: bigint): MinedFacts | null {
  return receipt ? { success: receipt.status === "success", confirmations: Number(head - receipt.blockNumber + 1n) } : null;
}

async function finish(db: Db, withdrawal: Withdrawal, settlement: Settlement & { status: "completed" | "failed" }): Promise<void> {
  await db.transaction(async (tx) => {
    const done = await tx
      .update(withdrawals)
      .set({
        status: settlement.status,
        failureReason: settlement.status === "failed" ? settlement.reason : null,
        confirmedAt: settlement.status === "completed" ? new Date() : null,
        fillerRawTx: null,
        updatedAt: new Date(),
      })
      .where(and(eq(withdrawals.id, withdrawal.id), eq(withdrawals.status, "submitted")))
      .returning();
    const event = withdrawalEvent(settlement);
    if (done[0] && event) await enqueueWithdrawalEvent(tx, done[0], event);
    if (done.length > 0 && withdrawal.apiKeyId !== null && releasesIdempotencyKey(settlement)) {
      // Nothing was sent: the shop may retry the same request with the same key.
      await tx
        .delete(idempotencyRecords)
        .where(and(eq(idempotencyRecords.apiKeyId, withdrawal.apiKeyId), eq(idempotencyRecords.scope, "withdrawal.send"), sql`${idempotencyRecords.responseBody}->>'withdrawalId' = ${withdrawal.id}`));
    }
  });
}

/** Signs and stores the 0-value self-transfer for the refused withdrawal's nonce, then sends it. */
async function fillNonce(db: Db, withdrawal: Withdrawal, reason: string): Promise<void> {
  const client = publicClientFor(withdrawal.network);
  const mined = await client.getTransactionCount({ address: withdrawal.fromAddress as Address });
  if (mined > withdrawal.nonce || withdrawal.fillerRawTx) {
    await db.update(withdrawals).set({ broadcastError: reason, updatedAt: new Date() }).where(eq(withdrawals.id, withdrawal.id));
    return;
  }
  const gasPrice = fillerGasPrice(withdrawal);
  const chain = chainOf(networkConfig(withdrawal.network)!);
  const signer = keyRingFor(getConfig().masterMnemonic).signer("withdrawal", withdrawal.domainId);
  const raw = await signer.signTransaction({ chain, chainId: chain.id, type: "legacy", to: signer.address, value: 0n, gas: 21_000n, gasPrice, nonce: withdrawal.nonce });
  const [stored] = await db
    .update(withdrawals)
    .set({ fillerTxHash: hashOfRaw(raw), fillerRawTx: raw, broadcastError: reason, updatedAt: new Date() })
    .where(and(eq(withdrawals.id, withdrawal.id), eq(withdrawals.status, "submitted")))
    .returning();
  if (stored) await sendFiller(db, stored);
}

/** A replacement must outbid the original. */
function fillerGasPrice(withdrawal: Withdrawal): bigint {
  return (withdrawal.gasPrice * 12n) / 10n;
}

/** Makes sure the wallet can pay for the filler (the gas tank tops it up), then sends it. */
async function sendFiller(db: Db, withdrawal: Withdrawal): Promise<void> {
  if (!withdrawal.fillerRawTx) return;
  const client = publicClientFor(withdrawal.network);
  const wallet = withdrawal.fromAddress as Address;
  try {
    await ensureGasBalance(db, withdrawal.network, wallet, 21_000n * fillerGasPrice(withdrawal));
    await client.request({ method: "eth_sendRawTransaction", params: [withdrawal.fillerRawTx as Hex] });
  } catch (error) {
    if (!broadcastLanded(classifyRpcError(error))) log.warn({ withdrawalId: withdrawal.id, err: errorText(error) }, "nonce filler not sent yet; retrying");
  }
}

/** Rows from before withdrawals stayed submitted: failed at once, with a filler still to be mined. */
async function sendLegacyFillers(db: Db): Promise<void> {
  const open = await db.select().from(withdrawals).where(and(eq(withdrawals.status, "failed"), isNotNull(withdrawals.fillerRawTx)));
  for (const withdrawal of open) {
    const client = publicClientFor(withdrawal.network);
    if ((await client.getTransactionCount({ address: withdrawal.fromAddress as Address }).catch(() => -1)) > withdrawal.nonce) {
      await db.update(withdrawals).set({ fillerRawTx: null }).where(eq(withdrawals.id, withdrawal.id));
    } else {
      await sendFiller(db, withdrawal);
    }
  }
}
