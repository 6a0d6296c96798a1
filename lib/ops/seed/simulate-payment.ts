/**
 * The dashboard's "simulate payment" (BTCPay's regtest cheat mode): on the embedded network only,
 * anvil's funded demo payer sends the remaining amount of a pending session's token to its deposit
 * address — a real transfer, detected and forwarded like any other.
 */

import { type Address, createWalletClient, erc20Abi, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { findSession } from "../../domain/payments/find-session";
import { chainOf, networkConfig, publicClientFor, requireNetworkConfig, rpcUrlsOf } from "../../engine/chain/networks";
import { ANVIL_DEFAULT_KEYS } from "../../engine/dev/demo-token";
import { simulationRefusal } from "./reasons";

export function canSimulatePayments(network: string): boolean {
  return network === "local" && networkConfig("local") !== undefined;
}

export async function simulatePayment(db: Db, userId: number, sessionId: string): Promise<{ txHash: string; amountUnits: bigint }> {
  const found = await findSession(db, sessionId);
  if (!found || found.session.userId !== userId) throw commonRefusal("NOT_FOUND", "not-found", "payment not found");
  const { session, token } = found;
  if (!canSimulatePayments(session.network))
    throw simulationRefusal("VALIDATION_ERROR", "simulation-not-local", "payments can be simulated on the embedded network local only");
  if (session.status !== "pending")
    throw simulationRefusal(
      "VALIDATION_ERROR",
      "simulation-not-pending",
      `the payment is ${session.status}; only a pending payment can be paid`,
    );
  const remaining = session.amount - session.receivedAmount;
  if (remaining <= 0n) throw simulationRefusal("VALIDATION_ERROR", "simulation-nothing-left", "nothing is left to pay");
  const payer = privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]);
  const client = publicClientFor("local");
  const held = await client.readContract({
    address: token.contractAddress as Address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [payer.address],
  });
  if (held < remaining)
    throw simulationRefusal("BLOCKCHAIN_ERROR", "simulation-payer-short", `the demo payer holds too little ${token.symbol} to pay this`);
  const local = requireNetworkConfig("local");
  const wallet = createWalletClient({
    account: payer,
    chain: chainOf(local),
    transport: http(rpcUrlsOf(local)[0]),
  });
  const txHash = await wallet.writeContract({
    address: token.contractAddress as Address,
    abi: erc20Abi,
    functionName: "transfer",
    args: [session.depositAddress as Address, remaining],
  });
  return { txHash, amountUnits: remaining };
}
