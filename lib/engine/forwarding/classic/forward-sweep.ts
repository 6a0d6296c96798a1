/**
 * The classic sweep's second half: once the gas top-up is mined, the deposit key signs the token
 * transfer of the address's whole balance (recorded in the ledger before it is sent) — for BNB
 * itself, the plain transfer of what it holds less its own fee (native-sweep.ts) — and its
 * receipt completes the forward — or sends it back to planning, as forward-state.ts decides.
 */
import type { Address } from "viem";
import type { Db } from "../../../db";
import type { Forward } from "../../../db/schema/engine";
import { isNativeToken } from "../../chain/native";
import { publicClientFor } from "../../chain/networks";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { signAndRecord } from "../../ledger/signing";
import { depositBook } from "../deposit-book";
import { applyForwardFact, complete, hold, moveOn, type StepOutcome } from "../forward-records";
import { transferData } from "./forward-gas";
import { forwardTransactionOutcome, sendForwardTransaction } from "./forward-ledger";
import { nativeSweepValue } from "./native-sweep";

/** gas_sent → sweep_sent once the top-up is mined: sign the token transfer, record it in the ledger, send it. */
export async function signSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  if (forward.gasTxId !== null) {
    const topUp = await forwardTransactionOutcome(db, forward.gasTxId);
    if (topUp.state === "waiting") return "waiting";
    // Its nonce went to another transaction (a cancel of a refused top-up, or the key used outside
    // this service): this top-up never happened. Plan again; the tokens still move once (no sweep is signed).
    if (topUp.state === "lost") return moveOn(db, forward, { kind: "top-up-failed", reason: "gas top-up replaced; planning again" });
    if (!topUp.success) return moveOn(db, forward, { kind: "top-up-failed", reason: `gas top-up ${topUp.winner.txHash} reverted` });
  }
  const [session] = await depositBook.get().depositKeys(db, forward.network, [forward.fromAddress]);
  const wallet = session ? serviceAddresses().wallet("deposit", session.depositIndex) : null;
  if (!session || !wallet || wallet.address !== forward.fromAddress)
    return hold(db, forward, "the deposit key does not match the deposit address");
  const { sweepGasLimit, gasPrice } = forward;
  // gas-recorded always records the plan with its transactions; a row without it cannot be signed for.
  if (sweepGasLimit === null || gasPrice === null)
    return hold(db, forward, "the gas step was recorded without its plan (gas price and limit)");
  const chainCount = await client.getTransactionCount({ address: wallet.address });
  const row = await db
    .transaction(async (tx) => {
      // BNB itself: one plain transfer of what the address holds less its own fee (native-sweep.ts).
      const payload = isNativeToken(forward.tokenContract)
        ? { to: forward.toAddress as Address, value: nativeSweepValue(forward) }
        : { to: forward.tokenContract as Address, data: transferData(forward.toAddress, forward.amount) };
      const recorded = await signAndRecord(tx, {
        network: forward.network,
        wallet,
        kind: "sweep",
        chainCount,
        transaction: { type: "legacy", ...payload, gas: sweepGasLimit, gasPrice },
      });
      const stored = await applyForwardFact(
        tx,
        forward,
        { kind: "sweep-recorded" },
        { record: { sweepTxId: recorded.id, sweepNonce: recorded.nonce, sweepTxHash: recorded.txHash } },
      );
      // Another worker got there first: roll back, so neither the nonce nor a second transfer is recorded.
      if (!stored) throw new SweepMovedOn();
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
  if (forward.sweepTxId === null)
    return moveOn(db, forward, { kind: "sweep-unrecorded", reason: "sweep without a ledger record; planning again" });
  const sweep = await forwardTransactionOutcome(db, forward.sweepTxId);
  if (sweep.state === "waiting") return "waiting";
  if (sweep.state === "lost") {
    // The nonce was used, but not by our transaction: the deposit key signed something else.
    const reason = `nonce ${forward.sweepNonce} of ${forward.fromAddress} was used by another transaction; planning again`;
    return moveOn(db, forward, { kind: "sweep-lost", reason });
  }
  if (sweep.success) return complete(db, forward, sweep.winner.gasUsed);
  return moveOn(db, forward, { kind: "sweep-reverted", reason: `sweep ${sweep.winner.txHash} reverted on chain` });
}
