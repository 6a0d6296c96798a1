import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import { keyRingFor } from "../chain/keys";
import { chainOf, networkConfig, publicClientFor } from "../chain/networks";
import { allocateNonce } from "../chain/nonces";
import { getConfig } from "../config";
import type { Db } from "../db";
import { type Forward, forwards, paymentSessions } from "../db/schema";
import { recordTransaction } from "../ledger/record";
import { transferData } from "./forward-gas";
import { forwardTransactionOutcome, sendForwardTransaction } from "./forward-ledger";
import { complete, hold, MAX_SWEEP_REVERTS, replan, type StepOutcome } from "./forward-records";

/** gas_sent → sweep_sent once the top-up is mined: sign the token transfer, record it in the ledger, send it. */
export async function signSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  if (forward.gasTxId !== null) {
    const topUp = await forwardTransactionOutcome(db, forward.gasTxId);
    if (topUp.state === "waiting") return "waiting";
    // Its nonce went to another transaction (a cancel of a refused top-up, or the key used outside
    // this service): this top-up never happened. Plan again; the tokens still move once (no sweep is signed).
    if (topUp.state === "lost") return replan(db, forward, "gas top-up replaced; planning again", { attempts: forward.attempts + 1 });
    if (!topUp.success) return replan(db, forward, `gas top-up ${topUp.winner.txHash} reverted`, { attempts: forward.attempts + 1 });
  }
  const [session] = await db
    .select({ depositIndex: paymentSessions.depositIndex })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.network, forward.network), eq(paymentSessions.depositAddress, forward.fromAddress)));
  const signer = session ? keyRingFor(getConfig().masterMnemonic).signer("deposit", session.depositIndex) : null;
  if (!session || !signer || signer.address !== forward.fromAddress)
    return hold(db, forward, "the deposit key does not match the deposit address");
  const chainCount = await client.getTransactionCount({ address: signer.address });
  const chain = chainOf(networkConfig(forward.network)!);
  const row = await db
    .transaction(async (tx) => {
      const nonce = await allocateNonce(tx, forward.network, signer.address, chainCount);
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
      const recorded = await recordTransaction(tx, {
        network: forward.network,
        walletRole: "deposit",
        walletIndex: session.depositIndex,
        wallet: signer.address,
        kind: "sweep",
        raw,
      });
      const stored = await tx
        .update(forwards)
        .set({ status: "sweep_sent", sweepTxId: recorded.id, sweepNonce: nonce, sweepTxHash: recorded.txHash, updatedAt: new Date() })
        .where(and(eq(forwards.id, forward.id), eq(forwards.status, "gas_sent")))
        .returning({ id: forwards.id });
      // Another worker got there first: roll back, so neither the nonce nor a second transfer is recorded.
      if (stored.length === 0) throw new SweepMovedOn();
      return recorded;
    })
    .catch((error: unknown) => {
      if (error instanceof SweepMovedOn) return null;
      throw error;
    });
  if (row) await sendForwardTransaction(db, row, forward.id);
  return "next";
}

class SweepMovedOn extends Error {}

/**
 * sweep_sent → completed when the transfer is mined (the ledger settles its nonce and re-sends the
 * same bytes until then). A sweep that reverted is planned again with a fresh estimate, and held
 * after MAX_SWEEP_REVERTS: never a silent end with funds left on the address.
 */
export async function confirmSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  if (forward.sweepTxId === null) return replan(db, forward, "sweep without a ledger record; planning again");
  const sweep = await forwardTransactionOutcome(db, forward.sweepTxId);
  if (sweep.state === "waiting") return "waiting";
  if (sweep.state === "lost") {
    // The nonce was used, but not by our transaction: the deposit key signed something else.
    return replan(db, forward, `nonce ${forward.sweepNonce} of ${forward.fromAddress} was used by another transaction; planning again`, {
      attempts: forward.attempts + 1,
    });
  }
  if (sweep.success) return complete(db, forward, { gasUsed: sweep.winner.gasUsed });
  const reverts = forward.sweepReverts + 1;
  const reason = `sweep ${sweep.winner.txHash} reverted on chain`;
  if (reverts >= MAX_SWEEP_REVERTS) {
    await db.update(forwards).set({ sweepReverts: reverts }).where(eq(forwards.id, forward.id));
    return hold(db, forward, `${reason} (${reverts} times); the token refuses the transfer`);
  }
  return replan(db, forward, `${reason}; retrying with a fresh estimate`, { sweepReverts: reverts, attempts: forward.attempts + 1 });
}
