import { and, eq, isNotNull } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { getConfig } from "../config";
import { ensureGasBalance } from "../chain/gas-top-up";
import { keyRingFor } from "../chain/keys";
import { chainOf, networkConfig, publicClientFor } from "../chain/networks";
import { errorText, hashOfRaw, isTransientRpcError, receiptOf } from "../chain/transactions";
import type { Db } from "../db";
import { withdrawals, type Withdrawal } from "../db/schema";
import { log } from "../log";

/**
 * Broadcasting and confirming withdrawals. A stored transaction is only ever re-sent as the
 * same bytes. When a node refuses it for good (not a network fault), its nonce would stay a hole
 * and stall every later send of the wallet, so the slot is filled with a 0-value self-transfer
 * and the withdrawal fails with the reason.
 */
const ALREADY_IN = /already known|known transaction|already imported|AlreadyKnown/i;
const NONCE_USED = /nonce too low/i;

export type BroadcastResult = "sent" | "retry-later" | "refused";

export async function broadcastWithdrawal(db: Db, withdrawal: Withdrawal): Promise<BroadcastResult> {
  const client = publicClientFor(withdrawal.network);
  try {
    await client.request({ method: "eth_sendRawTransaction", params: [withdrawal.rawTx as Hex] });
    await db.update(withdrawals).set({ broadcastAt: new Date(), updatedAt: new Date() }).where(eq(withdrawals.id, withdrawal.id));
    return "sent";
  } catch (error) {
    const text = errorText(error);
    if (ALREADY_IN.test(text)) return "sent";
    if (NONCE_USED.test(text)) return "retry-later"; // mined already, or replaced: the confirmer tells which
    if (isTransientRpcError(error)) return "retry-later";
    await failAndFillNonce(db, withdrawal, `broadcast refused: ${text.split(" | ")[0]!.slice(0, 200)}`);
    return "refused";
  }
}

/** Job step: submitted → completed / failed, re-broadcasting what is not mined yet. */
export async function confirmWithdrawals(db: Db): Promise<{ completed: number; failed: number; pending: number }> {
  const open = await db.select().from(withdrawals).where(eq(withdrawals.status, "submitted"));
  const counts = { completed: 0, failed: 0, pending: 0 };
  counts.pending += await advanceFillers(db);
  for (const withdrawal of open) {
    try {
      const outcome = await confirmOne(db, withdrawal);
      counts[outcome]++;
    } catch (error) {
      counts.pending++;
      log.warn({ withdrawalId: withdrawal.id, err: errorText(error) }, "withdrawal check failed; retrying");
    }
  }
  return counts;
}

async function confirmOne(db: Db, withdrawal: Withdrawal): Promise<"completed" | "failed" | "pending"> {
  const network = networkConfig(withdrawal.network);
  if (!network) return "pending";
  const client = publicClientFor(withdrawal.network);
  let receipt = await receiptOf(client, withdrawal.txHash as Hex);
  const mined = receipt ? null : await client.getTransactionCount({ address: withdrawal.fromAddress as Address });
  // Mined between the two calls: the count moved, and now the receipt is there.
  if (!receipt && mined! > withdrawal.nonce) receipt = await receiptOf(client, withdrawal.txHash as Hex);
  if (receipt) {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    if (head - receipt.blockNumber + 1n < BigInt(Math.max(1, network.confirmations))) return "pending";
    const ok = receipt.status === "success";
    await db
      .update(withdrawals)
      .set({ status: ok ? "completed" : "failed", failureReason: ok ? null : "the transfer reverted on chain", confirmedAt: new Date(), updatedAt: new Date() })
      .where(eq(withdrawals.id, withdrawal.id));
    return ok ? "completed" : "failed";
  }
  if (mined! > withdrawal.nonce) {
    await markFailed(db, withdrawal, "dropped: its nonce was used by another transaction of the wallet");
    return "failed";
  }
  return (await broadcastWithdrawal(db, withdrawal)) === "refused" ? "failed" : "pending";
}

async function failAndFillNonce(db: Db, withdrawal: Withdrawal, reason: string): Promise<void> {
  const client = publicClientFor(withdrawal.network);
  const network = networkConfig(withdrawal.network)!;
  const mined = await client.getTransactionCount({ address: withdrawal.fromAddress as Address });
  if (mined <= withdrawal.nonce) {
    const gasPrice = (withdrawal.gasPrice * 12n) / 10n; // a replacement must outbid the original
    const chain = chainOf(network);
    const signer = keyRingFor(getConfig().masterMnemonic).signer("withdrawal", withdrawal.domainId);
    const raw = await signer.signTransaction({ chain, chainId: chain.id, type: "legacy", to: signer.address, value: 0n, gas: 21_000n, gasPrice, nonce: withdrawal.nonce });
    await db.update(withdrawals).set({ fillerTxHash: hashOfRaw(raw), fillerRawTx: raw }).where(eq(withdrawals.id, withdrawal.id));
  }
  await markFailed(db, withdrawal, reason);
  await advanceFillers(db);
}

/**
 * Fillers not mined yet: make sure the wallet can pay for them (the gas tank tops it up) and
 * re-send the same bytes until their nonce is used. Returns how many are still open.
 */
async function advanceFillers(db: Db): Promise<number> {
  const open = await db.select().from(withdrawals).where(and(eq(withdrawals.status, "failed"), isNotNull(withdrawals.fillerRawTx)));
  let stillOpen = 0;
  for (const withdrawal of open) {
    const client = publicClientFor(withdrawal.network);
    try {
      const wallet = withdrawal.fromAddress as Address;
      if ((await client.getTransactionCount({ address: wallet })) > withdrawal.nonce) {
        await db.update(withdrawals).set({ fillerRawTx: null }).where(eq(withdrawals.id, withdrawal.id));
        continue;
      }
      stillOpen++;
      await ensureGasBalance(db, withdrawal.network, wallet, 21_000n * ((withdrawal.gasPrice * 12n) / 10n));
      await client.request({ method: "eth_sendRawTransaction", params: [withdrawal.fillerRawTx as Hex] });
    } catch (error) {
      const text = errorText(error);
      if (!ALREADY_IN.test(text)) log.warn({ withdrawalId: withdrawal.id, err: text }, "nonce filler not sent yet; retrying");
    }
  }
  return stillOpen;
}

async function markFailed(db: Db, withdrawal: Withdrawal, reason: string): Promise<void> {
  await db
    .update(withdrawals)
    .set({ status: "failed", failureReason: reason, confirmedAt: null, updatedAt: new Date() })
    .where(eq(withdrawals.id, withdrawal.id));
}
