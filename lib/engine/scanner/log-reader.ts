/**
 * Reading Transfer logs from a node that may refuse: eth_getLogs over a block range for the
 * catalogue's enabled contracts (at most MAX_ADDRESSES_PER_QUERY a query), halving the range when
 * a provider says "limit exceeded / too many results", down to one block asked one contract at a
 * time; and the blocks' times where the node does not stamp logs with them.
 */
import { type Hex, hexToBigInt, numberToHex, type PublicClient } from "viem";
import { classifyRpcError } from "../chain/rpc-errors";
import { type RawLog, TRANSFER_TOPIC } from "./transfer-log";

const MAX_ADDRESSES_PER_QUERY = 500;

/** Counts the RPC calls of one poll (the scan result reports them). */
export type RpcCall = <T>(p: Promise<T>) => Promise<T>;

/** The provider refuses even one block of one contract's logs: the range cannot be read. */
export class LogLimitError extends Error {
  constructor(readonly block: bigint) {
    super(`the RPC provider refuses the Transfer logs of block ${block} even one token contract at a time`);
    this.name = "LogLimitError";
  }
}

/**
 * eth_getLogs over [from, to]; when the provider refuses the size, retry the first half (and
 * then its first half…) down to one block, which is then asked for one contract at a time. The
 * caller advances the cursor only to what was actually read.
 */
export async function getLogsHalving(
  client: PublicClient,
  contracts: Hex[],
  fromBlock: bigint,
  toBlock: bigint,
  call: RpcCall,
): Promise<{ logs: RawLog[]; toBlock: bigint }> {
  const query = async (addresses: Hex[], end: bigint): Promise<RawLog[]> => {
    const logs: RawLog[] = [];
    for (let i = 0; i < addresses.length; i += MAX_ADDRESSES_PER_QUERY) {
      const part = (await call(
        client.request({
          method: "eth_getLogs",
          params: [
            {
              address: addresses.slice(i, i + MAX_ADDRESSES_PER_QUERY),
              topics: [TRANSFER_TOPIC],
              fromBlock: numberToHex(fromBlock),
              toBlock: numberToHex(end),
            },
          ],
        }),
      )) as unknown as RawLog[];
      logs.push(...part);
    }
    return logs;
  };
  for (let end = toBlock; ; ) {
    try {
      return { logs: await query(contracts, end), toBlock: end };
    } catch (error) {
      if (classifyRpcError(error) !== "range-too-large") throw error;
      if (end > fromBlock) {
        end = fromBlock + (end - fromBlock) / 2n;
        continue;
      }
    }
    // One block is still too much: one contract at a time, or give up on this block (health says so).
    const logs: RawLog[] = [];
    for (const contract of contracts) {
      try {
        logs.push(...(await query([contract], fromBlock)));
      } catch (error) {
        if (classifyRpcError(error) === "range-too-large") throw new LogLimitError(fromBlock);
        throw error;
      }
    }
    return { logs, toBlock: fromBlock };
  }
}

/** The times of the logs' blocks: stamped on the log, known already (`known`, keyed by the block's hex number), or read. */
export async function blockTimes(
  client: PublicClient,
  logs: RawLog[],
  call: RpcCall,
  known?: ReadonlyMap<Hex, Date>,
): Promise<Map<Hex, Date>> {
  const times = new Map<Hex, Date>();
  const missing = new Set<Hex>();
  for (const log of logs) {
    const seen = known?.get(numberToHex(hexToBigInt(log.blockNumber)));
    if (seen) times.set(log.blockNumber, seen);
    else if (log.blockTimestamp) times.set(log.blockNumber, new Date(Number(hexToBigInt(log.blockTimestamp)) * 1000));
    else missing.add(log.blockNumber);
  }
  await Promise.all(
    [...missing].map(async (number) => {
      const block = await call(client.getBlock({ blockNumber: hexToBigInt(number) }));
      times.set(number, new Date(Number(block.timestamp) * 1000));
    }),
  );
  return times;
}
