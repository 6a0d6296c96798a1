/**
 * What goes into a sweep batch (EIP-7702): each candidate's balance and delegation read in one
 * multicall, the authorizations of addresses not delegated yet (signed offline with their deposit
 * keys, by the ledger's signDelegation; the nonce is the address's own), the batch's calldata and gas bound, and the whole batch
 * simulated as an eth_call with its authorizations, so that an entry that would fail leaves the
 * batch before anything is signed. Every entry runs with at most gasPerSweep gas.
 *
 * BNB itself (NATIVE_TOKEN) is read as the address's own balance (Multicall3's getEthBalance), never
 * a balanceOf on the sentinel, and the delegate sends it as value. An address counts as delegated
 * only when it runs this delegate (its `implementation()`): one delegated to an older delegate
 * (which could not sweep BNB) gets a fresh authorization in its next batch.
 */
import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi, type Hex, multicall3Abi, type SignedAuthorization } from "viem";
import type { Db } from "../../../db";
import type { Forward } from "../../../db/schema/engine";
import { MULTICALL3_ADDRESS, readContracts } from "../../chain/multicall";
import { isNativeToken } from "../../chain/native";
import { publicClientFor, requireNetworkConfig } from "../../chain/networks";
import { serviceAddresses } from "../../chain/wallet-addresses";
import { signDelegation } from "../../ledger/signing";
import { depositBook } from "../deposit-book";
import { batchSweeperAbi, depositDelegateAbi, type SweepContracts } from "./batch-support";

const BATCH_BASE_GAS = 60_000n;
/** Per authorization: 25,000 intrinsic (an empty account) plus loading the delegation. */
const AUTHORIZATION_GAS = 27_500n;
/** Per entry beyond its allowance: calldata, the sweeper's loop, two cold accounts, the Swept event. */
const ENTRY_OVERHEAD_GAS = 20_000n;
const RPC_PARALLEL = 25;
/** Block gas limits, per network, read at most once a minute (a cache of a chain fact). */
const blockGasLimits = new Map<string, { gasLimit: bigint; readAt: number }>();

export interface Entry {
  forward: Forward;
  balance: bigint;
  authorization: SignedAuthorization | null;
}

export function batchGasLimit(entries: number, authorizations: number, gasPerSweep: bigint): bigint {
  return BATCH_BASE_GAS + BigInt(authorizations) * AUTHORIZATION_GAS + BigInt(entries) * ((gasPerSweep * 64n) / 63n + ENTRY_OVERHEAD_GAS);
}

/** The candidates ready to batch (balance read, authorization signed where needed), and those for the classic path with the reason. */
export async function readEntries(db: Db, network: string, candidates: Forward[], contracts: SweepContracts) {
  const [first] = candidates;
  if (!first) return { entries: [], toClassic: [] };
  const token = first.tokenContract as Address;
  const addresses = candidates.map((c) => c.fromAddress as Address);
  const native = isNativeToken(token);
  const reads = await readContracts<unknown>(
    network,
    [
      ...addresses.map((owner) =>
        native
          ? { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getEthBalance", args: [owner] }
          : { address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] },
      ),
      ...addresses.map((owner) => ({ address: owner, abi: depositDelegateAbi, functionName: "implementation", args: [] })),
    ],
    { nativeBalanceOf: (i) => (native && i < addresses.length ? (addresses[i] ?? null) : null) },
  );
  const sessions = await depositBook.get().depositKeys(db, network, addresses);
  const indexOf = new Map(sessions.map((s) => [s.depositAddress, s.depositIndex]));
  const keys = serviceAddresses();
  const client = publicClientFor(network);
  const { chainId } = requireNetworkConfig(network);

  const toClassic: { forward: Forward; reason: string }[] = [];
  const ready: { forward: Forward; balance: bigint; delegated: boolean }[] = [];
  for (const [i, forward] of candidates.entries()) {
    const balance = reads[i];
    const delegatedTo = reads[addresses.length + i];
    // The classic step reads again and holds it with the reason (balance short, unreadable token).
    if (typeof balance !== "bigint") toClassic.push({ forward, reason: "its balance could not be read" });
    else if (balance === 0n || balance < forward.amount) toClassic.push({ forward, reason: "its balance is short of the ledger" });
    else if (!indexOf.has(forward.fromAddress)) toClassic.push({ forward, reason: "no session owns the deposit address" });
    else
      ready.push({
        forward,
        balance,
        // The delegate's address follows from its code: a new delegate (BNB sweeps) is a new address.
        delegated: typeof delegatedTo === "string" && delegatedTo.toLowerCase() === contracts.delegate.toLowerCase(),
      });
  }
  const signed: (Entry & { keyMismatch?: boolean })[] = [];
  for (let start = 0; start < ready.length; start += RPC_PARALLEL) {
    const chunk = ready.slice(start, start + RPC_PARALLEL);
    signed.push(
      ...(await Promise.all(
        chunk.map(async ({ forward, balance, delegated }) => {
          if (delegated) return { forward, balance, authorization: null };
          const depositIndex = indexOf.get(forward.fromAddress);
          const wallet = depositIndex === undefined ? null : keys.wallet("deposit", depositIndex);
          // The classic step holds it with the reason; the others still batch.
          if (wallet?.address !== forward.fromAddress) return { forward, balance, authorization: null, keyMismatch: true };
          const nonce = await client.getTransactionCount({ address: wallet.address });
          return { forward, balance, authorization: await signDelegation(wallet, { address: contracts.delegate, chainId, nonce }) };
        }),
      )),
    );
  }
  for (const e of signed.filter((x) => x.keyMismatch))
    toClassic.push({ forward: e.forward, reason: "the deposit key does not match the deposit address" });
  return { entries: signed.filter((x) => !x.keyMismatch), toClassic };
}

/** The batch as an eth_call with its authorizations: which entries would sweep. */
export async function simulate(network: string, entries: Entry[], contracts: SweepContracts): Promise<{ ok: Entry[]; failed: Entry[] }> {
  if (entries.length === 0) return { ok: [], failed: [] };
  const client = publicClientFor(network);
  const authorizationList = entries.flatMap((e) => (e.authorization ? [e.authorization] : []));
  const { data } = await client.call({
    account: serviceAddresses().gasTank(),
    to: contracts.sweeper,
    data: sweepCallData(entries),
    gas: batchGasLimit(entries.length, authorizationList.length, contracts.gasPerSweep),
    ...(authorizationList.length > 0 ? { authorizationList } : {}),
  });
  const flags = decodeFunctionResult({ abi: batchSweeperAbi, functionName: "sweepBatch", data: data ?? "0x" }) as readonly boolean[];
  return { ok: entries.filter((_, i) => flags[i] === true), failed: entries.filter((_, i) => flags[i] !== true) };
}

export function sweepCallData(entries: Entry[]): Hex {
  return encodeFunctionData({
    abi: batchSweeperAbi,
    functionName: "sweepBatch",
    args: [
      entries.map((e) => ({ from: e.forward.fromAddress, token: e.forward.tokenContract, to: e.forward.toAddress, amount: e.balance })),
    ],
  });
}

/** How many entries fit in two thirds of a block at worst (every entry using its whole allowance). */
export async function entriesPerBlock(network: string, gasPerSweep: bigint): Promise<number> {
  let known = blockGasLimits.get(network);
  if (!known || Date.now() - known.readAt > 60_000) {
    known = { gasLimit: (await publicClientFor(network).getBlock()).gasLimit, readAt: Date.now() };
    blockGasLimits.set(network, known);
  }
  const block = known;
  const perEntry = batchGasLimit(1, 1, gasPerSweep) - BATCH_BASE_GAS;
  return Math.max(1, Number(((block.gasLimit * 2n) / 3n - BATCH_BASE_GAS) / perEntry));
}
