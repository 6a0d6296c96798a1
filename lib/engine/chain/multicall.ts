/**
 * Many reads in one round trip (Multicall3 where the chain has it, else bounded parallel calls):
 * balances for custody's reconcile and recover, the sweeper's pre-batch checks and the BNB balance
 * poller's reads pinned to a block. Chain
 * plumbing: it knows nothing of what the balances are for.
 */

import { type Abi, type Address, encodeDeployData, erc20Abi, type Hex, multicall3Abi } from "viem";
import nativeBalances from "./contracts/native-balances.json";
import { publicClientFor } from "./networks";
import { classifyRpcError } from "./rpc-errors";

/** Multicall3's address on BSC and nearly every chain (mds1/multicall). */
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";
/** Calls per eth_call: well inside a node's gas and response limits for balanceOf reads. */
const CALLS_PER_MULTICALL = 400;
/** Without Multicall3, this many single reads at a time. */
const PARALLEL_READS = 25;

export interface Holding {
  owner: Address;
  /** null: BNB. */
  token: Address | null;
  balance: bigint;
  /** The read itself failed (the token reverted or answered garbage): `balance` is 0 but unknown. */
  unreadable?: boolean;
}

const hasMulticall = new Map<string, boolean>();

/**
 * The BNB balance and every token balance of every owner, read in batches: through Multicall3 when
 * the chain has it (BSC does), else in parallel single calls. A token whose balanceOf fails or
 * answers garbage reads as 0 marked `unreadable` (an attacker's token cannot stop the scan, and
 * the caller can say it could not look). At `blockNumber` when given, else the latest block.
 */
export async function readHoldings(network: string, owners: Address[], tokens: Address[], blockNumber?: bigint): Promise<Holding[]> {
  const wanted: { owner: Address; token: Address | null }[] = owners.flatMap((owner) => [
    { owner, token: null },
    ...tokens.map((token) => ({ owner, token })),
  ]);
  const balances = await readContracts<bigint>(
    network,
    wanted.map(({ owner, token }) =>
      token === null
        ? { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getEthBalance", args: [owner] }
        : { address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner] },
    ),
    // biome-ignore lint/style/noNonNullAssertion: readContracts asks only for indices of the calls, which map `wanted` one to one
    { blockNumber, nativeBalanceOf: (i) => (wanted[i]!.token === null ? wanted[i]!.owner : null) },
  );
  return wanted.map((w, i) => (typeof balances[i] === "bigint" ? { ...w, balance: balances[i] } : { ...w, balance: 0n, unreadable: true }));
}

export interface ContractRead {
  address: Address;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}

/**
 * Many view calls at once: through Multicall3 when the chain has it, else in parallel single
 * calls. A call that reverts or answers garbage reads as null (an attacker's contract cannot stop
 * the caller); a node that does not answer throws. `nativeBalanceOf(i)` names the owner whose BNB
 * balance call i asks Multicall3 for, read with eth_getBalance when there is no Multicall3.
 */
export async function readContracts<T>(
  network: string,
  calls: ContractRead[],
  options: { blockNumber?: bigint; nativeBalanceOf?: (index: number) => Address | null } = {},
): Promise<(T | null)[]> {
  const client = publicClientFor(network);
  const { blockNumber } = options;
  if (!hasMulticall.has(network)) {
    const code = await client.getCode({ address: MULTICALL3_ADDRESS });
    hasMulticall.set(network, Boolean(code && code !== "0x"));
  }
  const results: (T | null)[] = [];
  if (hasMulticall.get(network)) {
    for (let start = 0; start < calls.length; start += CALLS_PER_MULTICALL) {
      const chunk = calls.slice(start, start + CALLS_PER_MULTICALL);
      const answers = await client.multicall({
        multicallAddress: MULTICALL3_ADDRESS,
        allowFailure: true,
        blockNumber,
        batchSize: 0,
        contracts: chunk,
      });
      for (const r of answers) results.push(r.status === "success" ? (r.result as T) : null);
    }
    return results;
  }
  for (let start = 0; start < calls.length; start += PARALLEL_READS) {
    const chunk = calls.slice(start, start + PARALLEL_READS);
    results.push(
      ...(await Promise.all(
        chunk.map((call, offset) => {
          const owner = options.nativeBalanceOf?.(start + offset) ?? null;
          const read = owner !== null ? client.getBalance({ address: owner, blockNumber }) : client.readContract({ ...call, blockNumber });
          return (read as Promise<T>).catch((error: unknown) => {
            // A contract that reverts reads as null; a node that does not answer must not read as "empty".
            if (classifyRpcError(error) === "rejected") return null;
            throw error;
          });
        }),
      )),
    );
  }
  return results;
}

/**
 * Addresses per eth_call of the BNB balance reads: the deployless reader's creation code with 1,000
 * addresses is ~32 kB (EIP-3860: 49,152) and its answer 16 kB (EIP-170: 24,576); ~3,000 gas an
 * address, far under providers' eth_call gas caps (50M). Multicall3's getEthBalance, the fallback,
 * takes ~6,000.
 */
export const NATIVE_BALANCES_PER_CALL = 1000;
/** Networks whose node refused the deployless read (no creation code in eth_call): Multicall3 there. */
const deploylessRefused = new Set<string>();

/**
 * The BNB balance of each owner at `blockNumber`: one eth_call per `perCall` owners, each counted
 * through `count`. The call runs NativeBalances' creation code without deploying it (~100 bytes an
 * address on the wire, request and answer); a node that refuses that is asked through Multicall3's
 * getEthBalance (~700 bytes an address) from then on. Null: neither is possible (no Multicall3 either) — the
 * caller then reads nothing rather than one call per address. A balance that did not read is null.
 */
export async function readNativeBalances(
  network: string,
  owners: readonly Address[],
  blockNumber: bigint,
  options: { perCall?: number; count?: () => void } = {},
): Promise<(bigint | null)[] | null> {
  const client = publicClientFor(network);
  const perCall = options.perCall ?? NATIVE_BALANCES_PER_CALL;
  const balances: (bigint | null)[] = [];
  for (let start = 0; start < owners.length; start += perCall) {
    const chunk = owners.slice(start, start + perCall);
    if (!deploylessRefused.has(network)) {
      options.count?.();
      try {
        const { data } = await client.call({
          data: encodeDeployData({ abi: nativeBalances.abi as Abi, bytecode: nativeBalances.bytecode as Hex, args: [chunk] }),
          blockNumber,
        });
        balances.push(...packedBalances(data ?? "0x", chunk.length));
        continue;
      } catch (error) {
        if (classifyRpcError(error) !== "rejected") throw error;
        deploylessRefused.add(network);
      }
    }
    if (!hasMulticall.has(network)) {
      options.count?.();
      const code = await client.getCode({ address: MULTICALL3_ADDRESS });
      hasMulticall.set(network, Boolean(code && code !== "0x"));
    }
    if (!hasMulticall.get(network)) return null;
    options.count?.();
    const answers = await client.multicall({
      multicallAddress: MULTICALL3_ADDRESS,
      allowFailure: true,
      blockNumber,
      batchSize: 0,
      contracts: chunk.map(
        (owner) => ({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getEthBalance", args: [owner] }) as const,
      ),
    });
    for (const r of answers) balances.push(r.status === "success" ? (r.result as bigint) : null);
  }
  return balances;
}

/** NativeBalances' answer: a zero byte, then 16 bytes per balance. */
function packedBalances(data: Hex, count: number): bigint[] {
  const hex = data.slice(2);
  if (hex.length !== 2 + count * 32) throw new Error(`the balance reader answered ${hex.length / 2} bytes for ${count} balances`);
  return Array.from({ length: count }, (_, i) => BigInt(`0x${hex.slice(2 + i * 32, 2 + (i + 1) * 32)}`));
}

/** Test and local-chain helper: forget whether a network has Multicall3 (after putting it there). */
export function forgetMulticall(network?: string): void {
  if (network) {
    hasMulticall.delete(network);
    deploylessRefused.delete(network);
  } else {
    hasMulticall.clear();
    deploylessRefused.clear();
  }
}
