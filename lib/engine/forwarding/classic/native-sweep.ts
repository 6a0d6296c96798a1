/**
 * The classic sweep of BNB itself (NATIVE_TOKEN): the deposit address pays its own gas from the BNB
 * it received — no gas-tank top-up, ever. pending → gas_sent plans it with no top-up transaction
 * (gasAmount 0, like a token sweep whose address already holds its gas); forward-sweep.ts then
 * signs one plain transfer of `amount − gasLimit × gasPrice` to the target, recorded in the ledger
 * before it is sent, and its receipt completes the forward. `amount` is what leaves the address
 * (its whole balance when planned): the planner counts it against the deposits, the fee included.
 * A balance that cannot pay its own gas waits as dust (DUST_PAUSE_SECONDS), asking the tank nothing.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Address } from "viem";
import { getConfig } from "../../../base/config";
import type { Db } from "../../../db";
import { type Forward, forwards } from "../../../db/schema/engine";
import { signingGasPrice } from "../../chain/gas-price";
import { NATIVE_SPELLINGS } from "../../chain/native";
import { publicClientFor } from "../../chain/networks";
import { classifyRpcError, errorText } from "../../chain/rpc-errors";
import { PLAIN_TRANSFER_GAS } from "../../chain/transactions";
import { depositBook } from "../deposit-book";
import { addressHasOtherInFlight, applyForwardFact, hold, type StepOutcome, wait } from "../forward-records";

/** How long a BNB balance that cannot pay its own transfer waits before it is read again (more may have arrived). */
export const DUST_PAUSE_SECONDS = 600;

/** pending → gas_sent for BNB: read the balance, fix gas price and limit, check the balance pays them. */
export async function prepareNativeSweep(db: Db, forward: Forward): Promise<StepOutcome> {
  const client = publicClientFor(forward.network);
  const from = forward.fromAddress as Address;
  const to = forward.toAddress as Address;
  const cap = getConfig().maxSweepGas;
  const [balance, gasPrice, code] = await Promise.all([
    client.getBalance({ address: from }),
    signingGasPrice(forward.network),
    client.getCode({ address: to }),
  ]);
  if (balance < forward.amount || balance === 0n)
    return hold(db, forward, `balance short: the address holds ${balance} wei, the ledger expects ${forward.amount}`);

  let sweepGasLimit = PLAIN_TRANSFER_GAS;
  if (code && code !== "0x") {
    // A contract (or a delegated account) runs code on receipt: estimated, and bounded like a token's transfer.
    let estimate: bigint;
    try {
      estimate = await client.estimateGas({ account: from, to, value: balance - PLAIN_TRANSFER_GAS * gasPrice });
    } catch (error) {
      if (classifyRpcError(error) === "rejected")
        return hold(db, forward, `the target refuses BNB in simulation: ${errorText(error).slice(0, 200)}`);
      throw error;
    }
    if (estimate > cap) return hold(db, forward, `the transfer needs ${estimate} gas, above MAX_SWEEP_GAS (${cap}); nothing was spent`);
    sweepGasLimit = minBig((estimate * 13n + 9n) / 10n, cap);
  }
  const fee = sweepGasLimit * gasPrice;
  if (balance <= fee) {
    await wait(db, forward.id, DUST_PAUSE_SECONDS, `dust: ${balance} wei cannot pay its own transfer (${fee} wei); it waits for more`);
    return "paused";
  }
  const planned = {
    amount: balance,
    gasPrice,
    sweepGasLimit,
    gasAmount: 0n,
    gasTxId: null,
    gasNonce: null,
    gasTxHash: null,
    sweepTxId: null,
    sweepNonce: null,
    sweepTxHash: null,
  };
  return db.transaction(async (tx) => {
    if (await addressHasOtherInFlight(tx, forward)) return "waiting" as const;
    // The plan is for the amount read above: a deposit attached meanwhile makes it stale.
    await applyForwardFact(tx, forward, { kind: "gas-recorded" }, { record: planned, guard: eq(forwards.amount, forward.amount) });
    return "next" as const;
  });
}

/** What a native sweep sends: what leaves the address less the fee it pays for itself (never negative: planned so). */
export function nativeSweepValue(forward: Pick<Forward, "amount" | "sweepGasLimit" | "gasPrice">): bigint {
  const fee = (forward.sweepGasLimit ?? 0n) * (forward.gasPrice ?? 0n);
  return forward.amount > fee ? forward.amount - fee : 0n;
}

/**
 * The BNB on `address` that belongs to its BNB deposits not forwarded yet: a token sweep must not
 * spend it on gas (it is the merchant's, and its own forward would then find the balance short).
 */
export async function nativeOwed(db: Db, network: string, address: string): Promise<bigint> {
  const received = await depositBook.get().nativeReceived(db, network, address);
  const [moved] = await db
    .select({ total: sql<string>`coalesce(sum(${forwards.amount}), 0)::text` })
    .from(forwards)
    .where(
      and(
        eq(forwards.network, network),
        eq(forwards.fromAddress, address),
        inArray(forwards.tokenContract, [...NATIVE_SPELLINGS]),
        eq(forwards.status, "completed"),
      ),
    );
  const owed = BigInt(received) - BigInt(moved?.total ?? "0");
  return owed > 0n ? owed : 0n;
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
