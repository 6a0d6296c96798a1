import { and, eq } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { getConfig } from "../config";
import type { Db } from "../db";
import { forwards, paymentSessions, type Forward } from "../db/schema";
import { transferData } from "./forward-gas";
import { broadcastOrNote, complete, hold, MAX_SWEEP_REVERTS, replan, type StepOutcome } from "./forward-records";
import { keyRingFor } from "./keys";
import { chainOf, networkConfig, publicClientFor } from "./networks";
import { hashOfRaw, receiptOf } from "./transactions";

/** gas_sent → sweep_sent once the top-up is mined: sign the token transfer, store it, send it. */
export async function signSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  if (forward.gasTxHash) {
    let receipt = await receiptOf(client, forward.gasTxHash as Hex);
    const tankMined = receipt ? null : await client.getTransactionCount({ address: keyRingFor(getConfig().masterMnemonic).gasTankAddress() });
    // Mined between the two calls: the count moved, and now the receipt is there.
    if (!receipt && tankMined! > forward.gasNonce!) receipt = await receiptOf(client, forward.gasTxHash as Hex);
    if (!receipt) {
      if (tankMined! > forward.gasNonce!) {
        // The tank's nonce went to another transaction (the key was used outside this service):
        // this top-up can never be mined. Plan again; the tokens still move once (no sweep is signed).
        return replan(db, forward, "gas top-up replaced; planning again", { attempts: forward.attempts + 1 });
      }
      await broadcastOrNote(db, forward.network, forward.gasRawTx as Hex, forward.id);
      return "waiting";
    }
    if (receipt.status !== "success") return replan(db, forward, `gas top-up ${forward.gasTxHash} reverted`, { attempts: forward.attempts + 1 });
  }
  const [session] = await db
    .select({ depositIndex: paymentSessions.depositIndex })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.network, forward.network), eq(paymentSessions.depositAddress, forward.fromAddress)));
  const signer = session ? keyRingFor(getConfig().masterMnemonic).signer("deposit", session.depositIndex) : null;
  if (!signer || signer.address !== forward.fromAddress) return hold(db, forward, "the deposit key does not match the deposit address");
  const nonce = await client.getTransactionCount({ address: signer.address });
  const chain = chainOf(networkConfig(forward.network)!);
  const raw = await signer.signTransaction({
    chain,
    chainId: chain.id,
    type: "legacy",
    to: forward.tokenContract as Address,
    data: transferData(forward.toAddress, forward.amount),
    gas: forward.sweepGasLimit!,
    gasPrice: forward.gasPrice!,
    nonce,
  });
  const stored = await db
    .update(forwards)
    .set({ status: "sweep_sent", sweepNonce: nonce, sweepRawTx: raw, sweepTxHash: hashOfRaw(raw), updatedAt: new Date() })
    .where(and(eq(forwards.id, forward.id), eq(forwards.status, "gas_sent")))
    .returning({ id: forwards.id });
  if (stored.length === 0) return "next"; // another worker got there first; re-read
  await broadcastOrNote(db, forward.network, raw, forward.id);
  return "next";
}

/**
 * sweep_sent → completed when the transfer is mined; re-broadcast the same bytes until then. A
 * sweep that reverted is planned again with a fresh estimate, and held after MAX_SWEEP_REVERTS:
 * never a silent end with funds left on the address.
 */
export async function confirmSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  let receipt = await receiptOf(client, forward.sweepTxHash as Hex);
  const mined = receipt ? null : await client.getTransactionCount({ address: forward.fromAddress as Address });
  // Mined between the two calls: the count moved, and now the receipt is there.
  if (!receipt && mined! > forward.sweepNonce!) receipt = await receiptOf(client, forward.sweepTxHash as Hex);
  if (receipt) {
    if (receipt.status === "success") return complete(db, forward, { gasUsed: receipt.gasUsed });
    const reverts = forward.sweepReverts + 1;
    const reason = `sweep ${forward.sweepTxHash} reverted on chain`;
    if (reverts >= MAX_SWEEP_REVERTS) {
      await db.update(forwards).set({ sweepReverts: reverts }).where(eq(forwards.id, forward.id));
      return hold(db, forward, `${reason} (${reverts} times); the token refuses the transfer`);
    }
    return replan(db, forward, `${reason}; retrying with a fresh estimate`, { sweepReverts: reverts, attempts: forward.attempts + 1 });
  }
  if (mined! > forward.sweepNonce!) {
    // The nonce was used, but not by our transaction: the deposit key signed something else.
    return replan(db, forward, `nonce ${forward.sweepNonce} of ${forward.fromAddress} was used by another transaction; planning again`, {
      attempts: forward.attempts + 1,
    });
  }
  await broadcastOrNote(db, forward.network, forward.sweepRawTx as Hex, forward.id);
  return "waiting";
}
