import { erc20Abi, multicall3Abi, type Address } from "viem";
import { publicClientFor } from "../chain/networks";
import { classifyRpcError } from "../chain/rpc-errors";

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
 * the caller can say it could not look). At
 * `blockNumber` when given, else the latest block.
 */
export async function readHoldings(network: string, owners: Address[], tokens: Address[], blockNumber?: bigint): Promise<Holding[]> {
  const client = publicClientFor(network);
  const wanted: { owner: Address; token: Address | null }[] = owners.flatMap((owner) => [{ owner, token: null }, ...tokens.map((token) => ({ owner, token }))]);
  if (!hasMulticall.has(network)) {
    const code = await client.getCode({ address: MULTICALL3_ADDRESS });
    hasMulticall.set(network, Boolean(code && code !== "0x"));
  }
  const balances: (bigint | null)[] = [];
  if (hasMulticall.get(network)) {
    for (let start = 0; start < wanted.length; start += CALLS_PER_MULTICALL) {
      const chunk = wanted.slice(start, start + CALLS_PER_MULTICALL);
      const results = await client.multicall({
        multicallAddress: MULTICALL3_ADDRESS,
        allowFailure: true,
        blockNumber,
        batchSize: 0,
        contracts: chunk.map(({ owner, token }) =>
          token === null
            ? { address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "getEthBalance" as const, args: [owner] as const }
            : { address: token, abi: erc20Abi, functionName: "balanceOf" as const, args: [owner] as const },
        ),
      });
      for (const r of results) balances.push(r.status === "success" && typeof r.result === "bigint" ? r.result : null);
    }
  } else {
    for (let start = 0; start < wanted.length; start += PARALLEL_READS) {
      const chunk = wanted.slice(start, start + PARALLEL_READS);
      balances.push(
        ...(await Promise.all(
          chunk.map(({ owner, token }) =>
            (token === null
              ? client.getBalance({ address: owner, blockNumber })
              : client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [owner], blockNumber })
            ).catch((error: unknown) => {
              // A token that reverts counts as 0; a node that does not answer must not read as "empty".
              if (classifyRpcError(error) === "rejected") return null;
              throw error;
            }),
          ),
        )),
      );
    }
  }
  return wanted.map((w, i) => (balances[i] === null ? { ...w, balance: 0n, unreadable: true } : { ...w, balance: balances[i]! }));
}

/** Test and local-chain helper: forget whether a network has Multicall3 (after putting it there). */
export function forgetMulticall(network?: string): void {
  if (network) hasMulticall.delete(network);
  else hasMulticall.clear();
}
