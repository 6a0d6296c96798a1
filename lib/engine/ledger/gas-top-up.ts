/**
 * Makes sure `wallet` holds at least `neededWei` of BNB, sending the difference from the gas tank
 * and waiting until it is mined. `maxWei` bounds what one top-up sends: the gas of the sends it pays
 * for. A target that also counts BNB the wallet sends as value (a BNB withdrawal or payout) must pass
 * it, so that a balance read between a send being mined and it being settled never has the tank
 * send value in place of gas. The top-up is recorded signed, with its nonce, before it is
 * broadcast. One top-up per wallet at a time in this process.
 */

import type { Address } from "viem";
import type { Db } from "../../db";
import { GasPriceAboveCapError, signingGasPrice } from "../chain/gas-price";
import { publicClientFor } from "../chain/networks";
import { chainRefusal } from "../chain/reasons";
import { topUpGasLimit } from "../chain/transactions";
import { serviceAddresses } from "../chain/wallet-addresses";
import { broadcastRecorded } from "./broadcast";
import type { GasChargeShare } from "./charges";
import { settleNonce } from "./settle";
import { signAndRecord } from "./signing";

const WAIT_MS = 60_000;
const inFlight = new Map<string, Promise<void>>();

export async function ensureGasBalance(
  db: Db,
  network: string,
  wallet: Address,
  neededWei: bigint,
  chargedTo: readonly GasChargeShare[] = [],
  maxWei?: bigint,
): Promise<void> {
  const key = `${network}:${wallet}`;
  for (;;) {
    const running = inFlight.get(key);
    if (!running) break;
    await running.catch(() => {});
  }
  const client = publicClientFor(network);
  if ((await client.getBalance({ address: wallet })) >= neededWei) return;
  const work = topUp(db, network, wallet, neededWei, chargedTo, maxWei);
  inFlight.set(key, work);
  try {
    await work;
  } finally {
    inFlight.delete(key);
  }
}

async function topUp(
  db: Db,
  network: string,
  wallet: Address,
  neededWei: bigint,
  chargedTo: readonly GasChargeShare[],
  maxWei: bigint | undefined,
): Promise<void> {
  const client = publicClientFor(network);
  const balance = await client.getBalance({ address: wallet });
  if (balance >= neededWei) return;
  const tankWallet = serviceAddresses().gasTankWallet();
  const tank = tankWallet.address;
  const gasPrice = await signingGasPrice(network).catch((error: unknown) => {
    // Said as the API says it (a withdrawal's send, a sweeper owner's call): nothing was signed, try later.
    throw error instanceof GasPriceAboveCapError ? chainRefusal("BLOCKCHAIN_ERROR", "gas-price-above-cap", error.message) : error;
  });
  const shortfall = neededWei - balance;
  const [tankBalance, tankCount, topUpGas] = await Promise.all([
    client.getBalance({ address: tank }),
    client.getTransactionCount({ address: tank }),
    topUpGasLimit(client, wallet),
  ]);
  const spendable = tankBalance - topUpGas * gasPrice;
  const value = maxWei !== undefined && shortfall > maxWei ? maxWei : shortfall;
  if (spendable < value) {
    throw chainRefusal(
      "BLOCKCHAIN_ERROR",
      "gas-tank-short",
      `not enough BNB for gas: the wallet ${wallet} needs ${neededWei - balance} wei more and the gas tank cannot cover it`,
    );
  }
  const recorded = await db.transaction((tx) =>
    signAndRecord(tx, {
      network,
      wallet: tankWallet,
      kind: "wallet_gas",
      chainCount: tankCount,
      transaction: { type: "legacy", to: wallet, value, gas: topUpGas, gasPrice },
      chargedTo,
    }),
  );
  await broadcastRecorded(db, recorded);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const outcome = await settleNonce(db, recorded);
    if (outcome.state === "settled" && outcome.winner.status === "mined" && outcome.winner.kind === "wallet_gas") return;
    if (outcome.state !== "open")
      throw chainRefusal("BLOCKCHAIN_ERROR", "gas-top-up-failed", "the gas top-up for this wallet did not go through; try again");
    if (Date.now() > deadline)
      throw chainRefusal("BLOCKCHAIN_ERROR", "gas-top-up-pending", "the gas top-up for this wallet is not mined yet; try again shortly");
    await new Promise((r) => setTimeout(r, 250));
  }
}
