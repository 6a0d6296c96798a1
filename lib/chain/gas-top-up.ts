import { isNull } from "drizzle-orm";
import { eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { getConfig } from "../config";
import type { Db } from "../db";
import { gasTopUps } from "../db/schema";
import { AppError } from "../errors";
import { keyRingFor } from "./keys";
import { chainOf, networkConfig, publicClientFor } from "./networks";
import { allocateNonce } from "./nonces";
import { broadcast, hashOfRaw, receiptOf, topUpGasLimit } from "./transactions";

/**
 * Makes sure `wallet` holds at least `neededWei` of BNB, sending exactly the difference from the
 * gas tank and waiting until it is mined: the caller bounds `neededWei` (capped gas limits of the
 * sends it pays for), so a top-up never covers more than that. The top-up is recorded signed,
 * with its nonce, before it is broadcast. One top-up per wallet at a time in this process.
 */
const WAIT_MS = 60_000;
const inFlight = new Map<string, Promise<void>>();

export async function ensureGasBalance(db: Db, network: string, wallet: Address, neededWei: bigint): Promise<void> {
  const key = `${network}:${wallet}`;
  for (;;) {
    const running = inFlight.get(key);
    if (!running) break;
    await running.catch(() => {});
  }
  const client = publicClientFor(network);
  if ((await client.getBalance({ address: wallet })) >= neededWei) return;
  const work = topUp(db, network, wallet, neededWei);
  inFlight.set(key, work);
  try {
    await work;
  } finally {
    inFlight.delete(key);
  }
}

async function topUp(db: Db, network: string, wallet: Address, neededWei: bigint): Promise<void> {
  const client = publicClientFor(network);
  const balance = await client.getBalance({ address: wallet });
  if (balance >= neededWei) return;
  const keys = keyRingFor(getConfig().masterMnemonic);
  const tank = keys.gasTankAddress();
  const gasPrice = await client.getGasPrice();
  const shortfall = neededWei - balance;
  const [tankBalance, tankCount, topUpGas] = await Promise.all([client.getBalance({ address: tank }), client.getTransactionCount({ address: tank }), topUpGasLimit(client, wallet)]);
  const spendable = tankBalance - topUpGas * gasPrice;
  const value = shortfall;
  if (spendable < value) {
    throw new AppError(
      "BLOCKCHAIN_ERROR",
      `not enough BNB for gas: the wallet ${wallet} needs ${neededWei - balance} wei more and the gas tank cannot cover it`,
    );
  }
  const chain = chainOf(networkConfig(network)!);
  const raw = await db.transaction(async (tx) => {
    const nonce = await allocateNonce(tx, network, tank, tankCount);
    const signed = await keys.signer("gasTank", 0).signTransaction({ chain, chainId: chain.id, type: "legacy", to: wallet, value, gas: topUpGas, gasPrice, nonce });
    await tx.insert(gasTopUps).values({ network, toAddress: wallet, value, nonce, txHash: hashOfRaw(signed), rawTx: signed });
    return signed;
  });
  const hash = hashOfRaw(raw);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    await broadcast(client, raw);
    const receipt = await receiptOf(client, hash);
    if (receipt) {
      await db.update(gasTopUps).set({ minedAt: new Date() }).where(eq(gasTopUps.txHash, hash));
      return;
    }
    if (Date.now() > deadline) throw new AppError("BLOCKCHAIN_ERROR", "the gas top-up for this wallet is not mined yet; try again shortly");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Job step: re-broadcast top-ups that are not mined yet (their nonces must not stay holes). */
export async function rebroadcastTopUps(db: Db): Promise<number> {
  const open = await db.select().from(gasTopUps).where(isNull(gasTopUps.minedAt));
  for (const topUp of open) {
    const client = publicClientFor(topUp.network);
    const receipt = await receiptOf(client, topUp.txHash as Hex);
    if (receipt) await db.update(gasTopUps).set({ minedAt: new Date() }).where(eq(gasTopUps.id, topUp.id));
    else await broadcast(client, topUp.rawTx as Hex);
  }
  return open.length;
}
