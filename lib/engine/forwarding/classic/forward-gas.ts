/**
 * pending → gas_sent: read the address's balance of the token, simulate sweeping all of it, fix
 * gas price and limit (estimate × 1.3, never above MAX_SWEEP_GAS), and have the gas tank top the
 * address up to exactly limit × price. Nothing is spent unless the simulation passes under the cap:
 * a token that reverts, needs too much gas, or holds less than the ledger says is held instead.
 */
import { eq } from "drizzle-orm";
import { type Address, encodeFunctionData, erc20Abi, type Hex } from "viem";
import { getConfig } from "../../../base/config";
import type { Db } from "../../../db";
import { type Forward, forwards } from "../../../db/schema/engine";
import { signingGasPrice } from "../../chain/gas-price";
import { isNativeToken } from "../../chain/native";
import { publicClientFor } from "../../chain/networks";
import { classifyRpcError, errorText } from "../../chain/rpc-errors";
import { topUpGasLimit } from "../../chain/transactions";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { chargesForSessions } from "../../ledger/charges";
import { signAndRecord } from "../../ledger/signing";
import { addressHasOtherInFlight, applyForwardFact, hold, type StepOutcome, wait } from "../forward-records";
import { sendForwardTransaction } from "./forward-ledger";
import { nativeOwed, prepareNativeSweep } from "./native-sweep";

/** How long forwards wait when the gas tank cannot pay their top-up. */
export const GAS_TANK_LOW_PAUSE_SECONDS = 30;

/** The ERC-20 transfer a sweep makes. */
export function transferData(to: string, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to as Address, amount] });
}

export async function prepareSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  // BNB itself pays its own gas: no top-up (native-sweep.ts).
  if (isNativeToken(forward.tokenContract)) return prepareNativeSweep(db, forward);
  const client = publicClientFor(forward.network);
  const from = forward.fromAddress as Address;
  const token = forward.tokenContract as Address;
  const cap = getConfig().maxSweepGas;

  let balance: bigint;
  try {
    balance = await client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [from] });
  } catch (error) {
    if (classifyRpcError(error) === "rejected") return hold(db, forward, `the token's balanceOf reverts: ${short(error)}`);
    throw error;
  }
  if (balance < forward.amount || balance === 0n) {
    return hold(db, forward, `balance short: the address holds ${balance} base units, the ledger expects ${forward.amount}`);
  }

  const data = transferData(forward.toAddress, balance);
  let estimate: bigint;
  try {
    estimate = await client.estimateGas({ account: from, to: token, data });
  } catch (error) {
    if (classifyRpcError(error) === "rejected") return hold(db, forward, `the token's transfer reverts in simulation: ${short(error)}`);
    throw error;
  }
  if (estimate > cap) return hold(db, forward, `the sweep needs ${estimate} gas, above MAX_SWEEP_GAS (${cap}); nothing was spent`);
  const sweepGasLimit = minBig((estimate * 13n + 9n) / 10n, cap);
  const [gasPrice, balanceWei, owed] = await Promise.all([
    signingGasPrice(forward.network),
    client.getBalance({ address: from }),
    nativeOwed(db, forward.network, forward.fromAddress),
  ]);
  // The BNB a payer sent here is the merchant's, forwarded by its own sweep: only what is beyond it pays gas.
  const bnb = balanceWei > owed ? balanceWei - owed : 0n;
  const needed = sweepGasLimit * gasPrice;
  // A fresh plan: nothing of an earlier attempt (a retried held forward) is carried over.
  const planned = {
    amount: balance,
    gasPrice,
    sweepGasLimit,
    gasTxId: null,
    gasNonce: null,
    gasTxHash: null,
    sweepTxId: null,
    sweepNonce: null,
    sweepTxHash: null,
  };
  // The plan is for the amount read above: a deposit attached meanwhile makes it stale.
  const stillPlanned = eq(forwards.amount, forward.amount);

  if (bnb >= needed) {
    return db.transaction(async (tx) => {
      if (await addressHasOtherInFlight(tx, forward)) return "waiting" as const;
      await applyForwardFact(tx, forward, { kind: "gas-recorded" }, { record: { ...planned, gasAmount: 0n }, guard: stillPlanned });
      return "next" as const;
    });
  }

  const topUp = needed - bnb;
  const tankWallet = serviceAddresses().gasTankWallet();
  const tank = tankWallet.address;
  const [tankBalance, tankCount, topUpGas] = await Promise.all([
    client.getBalance({ address: tank }),
    client.getTransactionCount({ address: tank }),
    topUpGasLimit(client, from),
  ]);
  if (tankBalance < topUp + topUpGas * gasPrice) {
    await wait(
      db,
      forward.id,
      GAS_TANK_LOW_PAUSE_SECONDS,
      `gas tank ${tank} holds ${tankBalance} wei, needs ${topUp + topUpGas * gasPrice}`,
    );
    return "gas-tank-low";
  }
  const outcome = await db
    .transaction(async (tx) => {
      if (await addressHasOtherInFlight(tx, forward)) return { step: "waiting" as const };
      const row = await signAndRecord(tx, {
        network: forward.network,
        wallet: tankWallet,
        kind: "sweep_gas",
        chainCount: tankCount,
        transaction: { type: "legacy", to: from, value: topUp, gas: topUpGas, gasPrice },
        chargedTo: await chargesForSessions(tx, [forward.sessionId]),
      });
      const stored = await applyForwardFact(
        tx,
        forward,
        { kind: "gas-recorded" },
        { record: { ...planned, gasAmount: topUp, gasTxId: row.id, gasNonce: row.nonce, gasTxHash: row.txHash }, guard: stillPlanned },
      );
      // Moved on meanwhile (another worker, or a deposit attached): roll back, or the tank's nonce stays a hole.
      if (!stored) throw new ForwardMovedOn();
      return { step: "next" as const, row };
    })
    .catch((error: unknown) => {
      if (error instanceof ForwardMovedOn) return { step: "next" as const };
      throw error;
    });
  if ("row" in outcome && outcome.row) await sendForwardTransaction(db, outcome.row, forward.id);
  return outcome.step;
}

class ForwardMovedOn extends Error {}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function short(error: unknown): string {
  return errorText(error).split(" | ").slice(0, 2).join(" | ").slice(0, 200);
}
