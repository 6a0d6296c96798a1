import { and, eq, sql } from "drizzle-orm";
import { BaseError, getAddress, type Hex, hexToBigInt, numberToHex, type PublicClient } from "viem";
import { ownersOfDepositTopics } from "../chain/deposit-addresses";
import { networkConfig, publicClientFor } from "../chain/networks";
import { classifyRpcError, errorText, publicRpcProblem } from "../chain/rpc-errors";
import type { Db } from "../db";
import { chainCursors, tokenCatalogue } from "../db/schema";
import { type QuarantineEntry, quarantineLogs } from "./quarantine";
import { decodeTransferLog, type RawLog, TRANSFER_TOPIC } from "./transfer-log";

export { TRANSFER_TOPIC } from "./transfer-log";

/**
 * One poll of one network: read the ERC-20 Transfer logs of every enabled catalogue token over
 * [cursor + 1, head − confirmations], keep those whose recipient is a deposit address, and record
 * them with the new cursor in one transaction. The RPC cost is getBlockNumber + getLogs per range
 * (+ a block per matching block when the node does not stamp logs with their time): it does not
 * depend on how many sessions are open. A provider's "too many results / range too large" halves
 * the range, down to one block split by token contract; no block is ever skipped.
 *
 * Hostile input: a log that does not decode as an ERC-20 Transfer, or whose recording fails, is
 * quarantined and the scan moves on; zero-value transfers are ignored (nothing to forward).
 */
export interface ObservedTransfer {
  network: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTimestamp: Date;
  tokenContract: string;
  fromAddress: string;
  toAddress: string;
  amount: bigint;
  sessionId: string;
}

/** Records transfers inside the scanner's transaction (the cursor moves in the same one). */
export type TransferRecorder = (tx: Db, transfers: ObservedTransfer[]) => Promise<void>;

export interface ScanResult {
  network: string;
  fromBlock: bigint;
  toBlock: bigint;
  head: bigint;
  /** Blocks left between the cursor and head − confirmations after this poll. */
  behind: bigint;
  logs: number;
  transfers: number;
  /** Transfers of 0 tokens into deposit addresses: not recorded. */
  ignored: number;
  quarantined: number;
  rpcCalls: number;
}

/** The provider refuses even one block of one contract's logs: the range cannot be read. */
export class LogLimitError extends Error {
  constructor(readonly block: bigint) {
    super(`the RPC provider refuses the Transfer logs of block ${block} even one token contract at a time`);
    this.name = "LogLimitError";
  }
}

const MAX_RANGE = 2000;
/** How far back a network's first scan starts, so payments made just before it are not missed. */
const FIRST_SCAN_LOOKBACK = 2000n;
const MAX_ADDRESSES_PER_QUERY = 500;

const rangeHint = new Map<string, number>();

export async function scanOnce(
  db: Db,
  network: string,
  options: { record: TransferRecorder; maxRange?: number },
): Promise<ScanResult | null> {
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
  const idle = { network, head, behind: 0n, logs: 0, transfers: 0, ignored: 0, quarantined: 0, rpcCalls };
  if (cursor >= target) return { ...idle, fromBlock: target + 1n, toBlock: cursor };

  const maxRange = options.maxRange ?? rangeHint.get(network) ?? MAX_RANGE;
  const fromBlock = cursor + 1n;
  const wanted = fromBlock + BigInt(maxRange) - 1n;
  const contracts = await enabledContracts(db, network);

  let toBlock = wanted < target ? wanted : target;
  let logs: RawLog[] = [];
  if (contracts.length > 0) {
    const fetched = await getLogsHalving(client, contracts, fromBlock, toBlock, call);
    logs = fetched.logs;
    // Remember what the provider accepted; grow back slowly after a success at full size.
    if (fetched.toBlock < toBlock) rangeHint.set(network, Number(fetched.toBlock - fromBlock + 1n));
    else if (toBlock === wanted) rangeHint.set(network, Math.min(MAX_RANGE, maxRange * 2));
    toBlock = fetched.toBlock;
  }

  // Only logs of the catalogue's contracts (a provider may answer more than asked) into deposit
  // addresses matter; the raw topic match comes first, decoding only for matches.
  const accepted = new Set(contracts.map((c) => c.toLowerCase()));
  const relevant = logs.filter(
    (l) => !l.removed && l.topics[0] === TRANSFER_TOPIC && accepted.has(l.address.toLowerCase()) && l.topics.length >= 3,
  );
  const recipients = [...new Set(relevant.map((l) => l.topics[2]!.slice(2).toLowerCase()))];
  const owners = recipients.length > 0 ? await ownersOfDepositTopics(db, network, recipients) : new Map();
  const matched = relevant.filter((l) => owners.has(l.topics[2]!.slice(2).toLowerCase()));

  const quarantine: QuarantineEntry[] = [];
  const decoded: { log: RawLog; from: Hex; amount: bigint }[] = [];
  let ignored = 0;
  for (const log of matched) {
    const result = decodeTransferLog(log);
    if (!result.ok) quarantine.push({ network, log, reason: result.reason });
    else if (result.amount === 0n) ignored++;
    else decoded.push({ log, from: result.from, amount: result.amount });
  }
  const times = await blockTimes(
    client,
    decoded.map((d) => d.log),
    call,
  );
  const transfers: ObservedTransfer[] = decoded.map(({ log, from, amount }) => ({
    network,
    txHash: log.transactionHash.toLowerCase(),
    logIndex: Number(hexToBigInt(log.logIndex)),
    blockNumber: hexToBigInt(log.blockNumber),
    blockHash: log.blockHash.toLowerCase(),
    blockTimestamp: times.get(log.blockNumber)!,
    tokenContract: getAddress(log.address),
    fromAddress: getAddress(from),
    toAddress: owners.get(log.topics[2]!.slice(2).toLowerCase())!.depositAddress,
    amount,
    sessionId: owners.get(log.topics[2]!.slice(2).toLowerCase())!.sessionId,
  }));

  // The common case in one plain transaction; only if the database refuses some transfer's data is
  // the poll done again with a savepoint per transfer, setting the refused ones aside.
  const commit = (oneByOne: boolean) =>
    db.transaction(async (tx) => {
      const all = [
        ...quarantine,
        ...(oneByOne ? await recordOneByOne(tx, transfers, matched, options.record) : await recordAll(tx, transfers, options.record)),
      ];
      await quarantineLogs(tx, all);
      // Optimistic: if another scanner moved the cursor meanwhile, this transaction rolls back.
      const moved = await tx
        .update(chainCursors)
        .set({ lastScannedBlock: toBlock, lastScanAt: new Date(), lastError: null, updatedAt: new Date() })
        .where(and(eq(chainCursors.network, network), eq(chainCursors.lastScannedBlock, cursor)))
        .returning({ network: chainCursors.network });
      if (moved.length === 0) throw new Error(`cursor of ${network} moved during the scan; retrying next poll`);
      return all.length;
    });
  const quarantined = await commit(false).catch((error: unknown) => {
    if (isDataError(error)) return commit(true);
    throw error;
  });
  return {
    network,
    fromBlock,
    toBlock,
    head,
    behind: target - toBlock,
    logs: logs.length,
    transfers: transfers.length,
    ignored,
    quarantined,
    rpcCalls,
  };
}

async function recordAll(tx: Db, transfers: ObservedTransfer[], record: TransferRecorder): Promise<QuarantineEntry[]> {
  if (transfers.length > 0) await record(tx, transfers);
  return [];
}

/**
 * Each transfer in its own savepoint, quarantining the ones whose data the database refuses — so
 * one transfer that cannot be stored never holds the cursor back. Any other failure (the
 * database is unwell) fails the whole poll, to be retried: an honest payment is never set aside
 * because of a passing fault.
 */
async function recordOneByOne(tx: Db, transfers: ObservedTransfer[], logs: RawLog[], record: TransferRecorder): Promise<QuarantineEntry[]> {
  const quarantine: QuarantineEntry[] = [];
  for (const transfer of transfers) {
    try {
      await tx.transaction((sp) => record(sp, [transfer]));
    } catch (error) {
      if (!isDataError(error)) throw error;
      const log = logs.find(
        (l) => l.transactionHash.toLowerCase() === transfer.txHash && Number(hexToBigInt(l.logIndex)) === transfer.logIndex,
      )!;
      quarantine.push({ network: transfer.network, log, reason: `recording failed: ${errorText(error).split("\n")[0]!.slice(0, 200)}` });
    }
  }
  return quarantine;
}

/** SQLSTATE classes 22 (data exception: overflow, bad value) and 23 (integrity constraint). */
function isDataError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e && typeof e === "object"; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^2[23][0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return false;
}

async function enabledContracts(db: Db, network: string): Promise<Hex[]> {
  const rows = await db
    .select({ address: tokenCatalogue.contractAddress })
    .from(tokenCatalogue)
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.enabled, true)));
  return rows.map((r) => r.address as Hex);
}

async function readCursor(db: Db, network: string, target: bigint): Promise<bigint> {
  const start = target > FIRST_SCAN_LOOKBACK ? target - FIRST_SCAN_LOOKBACK : -1n;
  await db.insert(chainCursors).values({ network, lastScannedBlock: start }).onConflictDoNothing();
  const [row] = await db.select().from(chainCursors).where(eq(chainCursors.network, network));
  return row!.lastScannedBlock;
}

/**
 * eth_getLogs over [from, to]; when the provider refuses the size, retry the first half (and
 * then its first half…) down to one block, which is then asked for one contract at a time. The
 * caller advances the cursor only to what was actually read.
 */
async function getLogsHalving(
  client: PublicClient,
  contracts: Hex[],
  fromBlock: bigint,
  toBlock: bigint,
  call: <T>(p: Promise<T>) => Promise<T>,
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

/** What /api/health may show about a failed scan: the kind of problem, never the RPC's words or URL. */
export function publicScanError(error: unknown): string {
  if (error instanceof LogLimitError) return error.message;
  if (error instanceof BaseError) return publicRpcProblem(classifyRpcError(error));
  return "the scan failed; see the server log";
}

export async function recordScanError(db: Db, network: string, error: unknown): Promise<void> {
  await db
    .update(chainCursors)
    .set({ lastError: publicScanError(error), updatedAt: sql`now()` })
    .where(eq(chainCursors.network, network));
}
