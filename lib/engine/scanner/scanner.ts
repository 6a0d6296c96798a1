/**
 * One poll of one network: read the ERC-20 Transfer logs of every enabled catalogue token over
 * [cursor + 1, the confirmed block] (lib/engine/chain/confirmations.ts), keep those whose recipient is a deposit address, and record
 * them with the new cursor in one transaction. The RPC cost is getBlockNumber + getLogs per range
 * (+ a block per matching block when the node does not stamp logs with their time): it does not
 * depend on how many sessions are open. A provider's "too many results / range too large" halves
 * the range, down to one block split by token contract; no block is ever skipped.
 *
 * Hostile input: a log that does not decode as an ERC-20 Transfer, or whose recording fails, is
 * quarantined and the scan moves on; zero-value transfers are ignored (nothing to forward).
 *
 * BNB itself (native-reader.ts): while a merchant on the network accepts it, the same range's
 * blocks are read too (one eth_getBlockByNumber per block, at most NATIVE_MAX_RANGE blocks a poll)
 * and its transfers into deposit addresses recorded with the logs'; otherwise no extra call.
 */
import { getAddress, type Hex, hexToBigInt, numberToHex } from "viem";
import type { Db } from "../../db";
import { confirmedBlock, confirmedUnder } from "../chain/confirmations";
import type { DepositOwners } from "../chain/deposit-addresses";
import { isNativeToken } from "../chain/native";
import { publicClientFor, requireNetworkConfig } from "../chain/networks";
import { advanceCursor, readCursor, storedCursor } from "./cursor";
import { blockTimes, getLogsHalving } from "./log-reader";
import { NATIVE_MAX_RANGE, type NativeBlock, nativeTransfers, readBlocks } from "./native-reader";
import { type QuarantineEntry, quarantineLogs } from "./quarantine";
import { isDataError, recordAll, recordOneByOne } from "./recording";
import { decodeTransferLog, type RawLog, TRANSFER_TOPIC } from "./transfer-log";

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

/**
 * What the scanner watches, asked of the catalogue and the sessions (not the engine's tables) as
 * its recorder is: lib/domain/payments/engine-ports.ts passes both (`scanPorts`).
 */
export interface ScanWatch {
  /** The catalogue's enabled token contracts on `network` (BNB's sentinel among them when enabled). */
  contracts(db: Db, network: string): Promise<Hex[]>;
  /** Whether blocks are read for BNB on `network`: its catalogue row is enabled and some merchant there registered it. */
  nativeAccepted(db: Db, network: string): Promise<boolean>;
  /** The sessions owning these deposit addresses (as topics). */
  depositOwners: DepositOwners;
}

export interface ScanResult {
  network: string;
  fromBlock: bigint;
  toBlock: bigint;
  head: bigint;
  /** Blocks left between the cursor and the confirmed block after this poll. */
  behind: bigint;
  logs: number;
  transfers: number;
  /** Transfers of 0 tokens into deposit addresses: not recorded. */
  ignored: number;
  quarantined: number;
  rpcCalls: number;
}

const MAX_RANGE = 2000;

const rangeHint = new Map<string, number>();

export async function scanOnce(
  db: Db,
  network: string,
  options: { record: TransferRecorder; watch: ScanWatch; maxRange?: number },
): Promise<ScanResult | null> {
  const config = requireNetworkConfig(network);
  const client = publicClientFor(network);
  let rpcCalls = 0;
  const call = <T>(p: Promise<T>) => {
    rpcCalls++;
    return p;
  };

  // Everything a range needs before its getLogs, read at once (a scan woken by a new head waits for
  // the slowest of them, not their sum). CONFIRMATIONS=1 reads the head itself: the block that holds
  // a transfer is its first confirmation.
  const { finality } = config;
  const [head, finalized, stored, enabled, native] = await Promise.all([
    call(client.getBlockNumber({ cacheTime: 0 })),
    finality.kind === "finalized" ? call(confirmedBlock(client, finality)) : null,
    storedCursor(db, network),
    options.watch.contracts(db, network),
    options.watch.nativeAccepted(db, network),
  ]);
  // The native coin has no logs: its catalogue row is read by blocks below, never asked of eth_getLogs.
  const contracts = enabled.filter((c) => !isNativeToken(c));
  // biome-ignore lint/style/noNonNullAssertion: the finalized block is read above exactly when finality is "finalized"
  const target = finality.kind === "finalized" ? finalized! : confirmedUnder(head, finality.blocks);
  if (target < 0n) return null;
  const cursor = stored ?? (await readCursor(db, network, target));
  const idle = { network, head, behind: 0n, logs: 0, transfers: 0, ignored: 0, quarantined: 0, rpcCalls };
  if (cursor >= target) return { ...idle, fromBlock: target + 1n, toBlock: cursor };

  const maxRange = options.maxRange ?? rangeHint.get(network) ?? MAX_RANGE;
  const fromBlock = cursor + 1n;
  const wanted = fromBlock + BigInt(maxRange) - 1n;

  let toBlock = wanted < target ? wanted : target;
  if (native && toBlock - fromBlock + 1n > BigInt(NATIVE_MAX_RANGE)) toBlock = fromBlock + BigInt(NATIVE_MAX_RANGE) - 1n;
  // The blocks are read alongside the logs; any past where a refusing provider cut the logs are dropped.
  const reading = native ? readBlocks(client, fromBlock, toBlock, call) : Promise.resolve([] as NativeBlock[]);
  reading.catch(() => {}); // awaited below; a getLogs failure first must not leave it unhandled
  let logs: RawLog[] = [];
  if (contracts.length > 0) {
    const fetched = await getLogsHalving(client, contracts, fromBlock, toBlock, call);
    logs = fetched.logs;
    // Remember what the provider accepted; grow back slowly after a success at full size.
    if (fetched.toBlock < toBlock) rangeHint.set(network, Number(fetched.toBlock - fromBlock + 1n));
    else if (toBlock === wanted) rangeHint.set(network, Math.min(MAX_RANGE, maxRange * 2));
    toBlock = fetched.toBlock;
  }
  const blocks = (await reading).filter((b) => b.number <= toBlock);

  // Only logs of the catalogue's contracts (a provider may answer more than asked) into deposit
  // addresses matter; the raw topic match comes first, decoding only for matches.
  const accepted = new Set(contracts.map((c) => c.toLowerCase()));
  const relevant = logs.filter(
    (l) => !l.removed && l.topics[0] === TRANSFER_TOPIC && accepted.has(l.address.toLowerCase()) && l.topics.length >= 3,
  );
  const recipients = [...new Set(relevant.map(recipientOf))];
  const owners = recipients.length > 0 ? await options.watch.depositOwners(db, network, recipients) : new Map();
  const matched = relevant.filter((l) => owners.has(recipientOf(l)));

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
    new Map(blocks.map((b) => [numberToHex(b.number), b.timestamp])),
  );
  const transfers: ObservedTransfer[] = decoded.map(({ log, from, amount }) => {
    const owner = owners.get(recipientOf(log));
    const blockTimestamp = times.get(log.blockNumber);
    // Matched by owner above, and blockTimes answers for every block it is given: a miss is a bug.
    if (!owner || !blockTimestamp) throw new Error(`transfer ${log.transactionHash}:${log.logIndex} lost its session or block time`);
    return {
      network,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: Number(hexToBigInt(log.logIndex)),
      blockNumber: hexToBigInt(log.blockNumber),
      blockHash: log.blockHash.toLowerCase(),
      blockTimestamp,
      tokenContract: getAddress(log.address),
      fromAddress: getAddress(from),
      toAddress: owner.depositAddress,
      amount,
      sessionId: owner.sessionId,
    };
  });

  const natives =
    blocks.length > 0
      ? await nativeTransfers(db, client, network, blocks, call, options.watch.depositOwners)
      : { transfers: [], logs: [], ignored: 0 };
  transfers.push(...natives.transfers);
  ignored += natives.ignored;
  const recordable = [...matched, ...natives.logs];

  // The common case in one plain transaction; only if the database refuses some transfer's data is
  // the poll done again with a savepoint per transfer, setting the refused ones aside.
  const commit = (oneByOne: boolean) =>
    db.transaction(async (tx) => {
      const all = [
        ...quarantine,
        ...(oneByOne ? await recordOneByOne(tx, transfers, recordable, options.record) : await recordAll(tx, transfers, options.record)),
      ];
      await quarantineLogs(tx, all);
      // Optimistic: if another scanner moved the cursor meanwhile, this transaction rolls back.
      await advanceCursor(tx, network, cursor, toBlock);
      return all.length;
    });
  // Most ranges (a block a head woke the scan for) hold nothing of ours: the cursor alone moves, in
  // one statement instead of a transaction's three round trips, so the next head's scan starts sooner.
  const quarantined =
    transfers.length === 0 && quarantine.length === 0
      ? await advanceCursor(db, network, cursor, toBlock).then(() => 0)
      : await commit(false).catch((error: unknown) => {
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

/** The recipient of a Transfer log as the deposit-address index keys it: the 20-byte tail of topic 2, lowercase. */
function recipientOf(log: RawLog): string {
  return (log.topics[2] ?? "").slice(2).toLowerCase();
}
