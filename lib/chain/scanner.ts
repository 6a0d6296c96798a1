import { and, eq, sql } from "drizzle-orm";
import { getAddress, hexToBigInt, numberToHex, type Hex, type PublicClient } from "viem";
import type { Db } from "../db";
import { chainCursors, tokens } from "../db/schema";
import { recordTransfers, sessionsByDepositTopic, type ObservedTransfer, type QueuedForward } from "../payments/record-transfers";
import { networkConfig, publicClientFor } from "./networks";
import { errorText } from "./transactions";

/**
 * One poll of one network: read the ERC-20 Transfer logs of every registered token contract over
 * [cursor + 1, head − confirmations], keep those whose recipient is a deposit address, and record
 * them with the new cursor in one transaction. The RPC cost is getBlockNumber + getLogs per range
 * (+ a block per matching block when the node does not stamp logs with their time): it does not
 * depend on how many sessions are open. A provider's "too many results / range too large" halves
 * the range; no block is ever skipped.
 */
export const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const MAX_RANGE = 2000;
/** How far back a network's first scan starts, so payments made just before it are not missed. */
const FIRST_SCAN_LOOKBACK = 2000n;
const MAX_ADDRESSES_PER_QUERY = 500;
const LIMIT_ERROR = /limit|too many|too large|range|exceed|more than|10000|-32005|response size/i;

interface RawLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  blockTimestamp?: Hex;
  transactionHash: Hex;
  logIndex: Hex;
  removed?: boolean;
}

export interface ScanResult {
  network: string;
  fromBlock: bigint;
  toBlock: bigint;
  head: bigint;
  /** Blocks left between the cursor and head − confirmations after this poll. */
  behind: bigint;
  logs: number;
  transfers: number;
  newForwards: QueuedForward[];
  rpcCalls: number;
}

const rangeHint = new Map<string, number>();

export async function scanOnce(db: Db, network: string, options: { maxRange?: number } = {}): Promise<ScanResult | null> {
  const config = networkConfig(network);
  if (!config) throw new Error(`network ${network} is not configured`);
  const client = publicClientFor(network);
  let rpcCalls = 0;
  const call = <T>(p: Promise<T>) => {
    rpcCalls++;
    return p;
  };

  const head = await call(client.getBlockNumber({ cacheTime: 0 }));
  const target = head - BigInt(config.confirmations);
  if (target < 0n) return null;
  const cursor = await readCursor(db, network, target);
  if (cursor >= target) return { network, fromBlock: target + 1n, toBlock: cursor, head, behind: 0n, logs: 0, transfers: 0, newForwards: [], rpcCalls };

  const maxRange = options.maxRange ?? rangeHint.get(network) ?? MAX_RANGE;
  const fromBlock = cursor + 1n;
  const wanted = fromBlock + BigInt(maxRange) - 1n;
  const contracts = await db.selectDistinct({ address: tokens.contractAddress }).from(tokens).where(eq(tokens.network, network));

  let toBlock = wanted < target ? wanted : target;
  let logs: RawLog[] = [];
  if (contracts.length > 0) {
    const fetched = await getLogsHalving(client, contracts.map((c) => c.address as Hex), fromBlock, toBlock, call);
    logs = fetched.logs;
    // Remember what the provider accepted; grow back slowly after a success at full size.
    if (fetched.toBlock < toBlock) rangeHint.set(network, Number(fetched.toBlock - fromBlock + 1n));
    else if (toBlock === wanted) rangeHint.set(network, Math.min(MAX_RANGE, maxRange * 2));
    toBlock = fetched.toBlock;
  }

  // Raw topic match first: only transfers to a deposit address are decoded.
  const recipients = [...new Set(logs.filter((l) => l.topics[0] === TRANSFER_TOPIC && l.topics.length === 3).map((l) => l.topics[2]!.slice(2).toLowerCase()))];
  const sessions = recipients.length > 0 ? await sessionsByDepositTopic(db, network, recipients) : new Map();
  const matched = logs.filter((l) => !l.removed && l.topics.length === 3 && sessions.has(l.topics[2]!.slice(2).toLowerCase()));
  const times = await blockTimes(client, matched, call);
  const transfers: ObservedTransfer[] = matched.map((log) => {
    const session = sessions.get(log.topics[2]!.slice(2).toLowerCase())!;
    return {
      network,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: Number(hexToBigInt(log.logIndex)),
      blockNumber: hexToBigInt(log.blockNumber),
      blockHash: log.blockHash.toLowerCase(),
      blockTimestamp: times.get(log.blockNumber)!,
      tokenContract: getAddress(log.address),
      fromAddress: getAddress(`0x${log.topics[1]!.slice(26)}`),
      toAddress: session.depositAddress,
      amount: hexToBigInt(log.data === "0x" ? "0x0" : log.data),
      sessionId: session.id,
    };
  });

  const newForwards = await db.transaction(async (tx) => {
    const ids = await recordTransfers(tx, transfers);
    // Optimistic: if another scanner moved the cursor meanwhile, this transaction rolls back.
    const moved = await tx
      .update(chainCursors)
      .set({ lastScannedBlock: toBlock, lastScanAt: new Date(), lastError: null, updatedAt: new Date() })
      .where(and(eq(chainCursors.network, network), eq(chainCursors.lastScannedBlock, cursor)))
      .returning({ network: chainCursors.network });
    if (moved.length === 0) throw new Error(`cursor of ${network} moved during the scan; retrying next poll`);
    return ids;
  });
  return { network, fromBlock, toBlock, head, behind: target - toBlock, logs: logs.length, transfers: transfers.length, newForwards, rpcCalls };
}

async function readCursor(db: Db, network: string, target: bigint): Promise<bigint> {
  const start = target > FIRST_SCAN_LOOKBACK ? target - FIRST_SCAN_LOOKBACK : -1n;
  await db.insert(chainCursors).values({ network, lastScannedBlock: start }).onConflictDoNothing();
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.network, network));
  return row!.lastScannedBlock;
}

/**
 * eth_getLogs over [from, to]; when the provider refuses the size, retry the first half (and
 * then its first half…): the caller advances the cursor only to what was actually read.
 */
async function getLogsHalving(
  client: PublicClient,
  contracts: Hex[],
  fromBlock: bigint,
  toBlock: bigint,
  call: <T>(p: Promise<T>) => Promise<T>,
): Promise<{ logs: RawLog[]; toBlock: bigint }> {
  for (let end = toBlock; ; ) {
    try {
      const logs: RawLog[] = [];
      for (let i = 0; i < contracts.length; i += MAX_ADDRESSES_PER_QUERY) {
        const part = (await call(
          client.request({
            method: "eth_getLogs",
            params: [
              {
                address: contracts.slice(i, i + MAX_ADDRESSES_PER_QUERY),
                topics: [TRANSFER_TOPIC],
                fromBlock: numberToHex(fromBlock),
                toBlock: numberToHex(end),
              },
            ],
          }),
        )) as unknown as RawLog[];
        logs.push(...part);
      }
      return { logs, toBlock: end };
    } catch (error) {
      if (!LIMIT_ERROR.test(errorText(error)) || end === fromBlock) throw error;
      end = fromBlock + (end - fromBlock) / 2n;
    }
  }
}

async function blockTimes(client: PublicClient, logs: RawLog[], call: <T>(p: Promise<T>) => Promise<T>): Promise<Map<Hex, Date>> {
  const times = new Map<Hex, Date>();
  const missing = new Set<Hex>();
  for (const log of logs) {
    if (log.blockTimestamp) times.set(log.blockNumber, new Date(Number(hexToBigInt(log.blockTimestamp)) * 1000));
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

export async function recordScanError(db: Db, network: string, error: unknown): Promise<void> {
  await db
    .update(chainCursors)
    .set({ lastError: errorText(error).slice(0, 500), updatedAt: sql`now()` })
    .where(eq(chainCursors.network, network));
}
