/**
 * BNB in, whoever sends it. A contract that pays with an internal call (a Safe, a 4337 wallet, an
 * exchange's hot wallet) sends no transaction to the deposit address, so the block reader
 * (native-reader.ts) never sees it. Every NATIVE_POLL_EVERY_BLOCKS blocks this poll reads the BNB
 * balance of the watched deposit addresses (native-watch.ts: open sessions that offer BNB) with
 * Multicall3's getEthBalance, NATIVE_BALANCES_PER_CALL addresses an eth_call, pinned to the block
 * the scanner has read up to (never above the confirmed head: a reorg cannot show a phantom, and
 * every plain transfer up to it is already recorded by the block reader). What the records do not
 * explain (native-balance-ledger.ts: deposits, the ledger's top-ups and spends, batched sweeps) is
 * recorded through the injected recorder as a deposit keyed by (block, address), exactly once
 * (native-balance-record.ts).
 *
 * A session's deadline: a reading after it that finds something unexplained first reads the
 * balance at the deadline's own block (the last block mined by expiresAt, or a cancel's block):
 * what was there by then counts in time, the rest is late. A node that no longer holds that
 * block's state (more than NATIVE_STATE_BLOCKS back) makes it late. After the deadline the address
 * is read for NATIVE_LATE_WATCH_MS more, every NATIVE_LATE_EVERY_BLOCKS blocks.
 *
 * Cost: nothing while no open session offers BNB; otherwise per poll one header and one eth_call
 * per NATIVE_BALANCES_PER_CALL addresses (at most NATIVE_POLL_MAX_ADDRESSES, soonest deadline
 * first), plus — only for addresses that received something around their deadline — a few
 * headers and one eth_call per distinct deadline block. Sessions are made by merchants (API keys
 * with quotas, links with a cap on open sessions): a payer can add no address to read.
 */
import { eq } from "drizzle-orm";
import type { Address } from "viem";
import { errorText } from "../../base/error-text";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type NativeBalanceWatchRow, nativeBalancePolls } from "../../db/schema/engine";
import { readNativeBalances } from "../chain/multicall";
import { publicClientFor } from "../chain/networks";
import { type BlockHeader, BlockHeaders } from "./block-headers";
import { explainedBalances, withNativeDeposits } from "./native-balance-ledger";
import { type BalanceReading, recordReadings } from "./native-balance-record";
import { type NativeWatchPort, syncWatch } from "./native-watch";
import type { TransferRecorder } from "./scanner";

/** Blocks between two polls: 10 × 0.45 s ≈ 4.5 s on BSC. */
export const NATIVE_POLL_EVERY_BLOCKS = 10;
/** Blocks between two readings of an address whose deadline has passed: ≈ 45 s. */
export const NATIVE_LATE_EVERY_BLOCKS = 100;
/** Addresses one poll reads at most (20 eth_calls); beyond, the soonest deadlines first and a warning. */
export const NATIVE_POLL_MAX_ADDRESSES = 20_000;
/** How far back a node is trusted to hold a block's state (BSC full nodes keep ~128 blocks). */
export const NATIVE_STATE_BLOCKS = 120n;

export interface NativePollResult {
  network: string;
  /** The block read at (null: not due, or nothing to read). */
  block: bigint | null;
  watched: number;
  read: number;
  recorded: number;
  /** Addresses skipped because a sweep or top-up of ours was moving their BNB. */
  moving: number;
  /** Readings at a deadline's own block. */
  deadlineReads: number;
  rpcCalls: number;
}

export async function pollNativeBalances(
  db: Db,
  network: string,
  options: { atBlock: bigint; port: NativeWatchPort; record: TransferRecorder; everyBlocks?: number; now?: Date },
): Promise<NativePollResult> {
  const { atBlock } = options;
  const now = options.now ?? new Date();
  const result: NativePollResult = { network, block: null, watched: 0, read: 0, recorded: 0, moving: 0, deadlineReads: 0, rpcCalls: 0 };
  const [last] = await db.select().from(nativeBalancePolls).where(eq(nativeBalancePolls.network, network));
  const previous = last?.polledBlock ?? null;
  if (previous !== null && atBlock - previous < BigInt(options.everyBlocks ?? NATIVE_POLL_EVERY_BLOCKS)) return result;
  const lateDue = previous === null || atBlock / BigInt(NATIVE_LATE_EVERY_BLOCKS) > previous / BigInt(NATIVE_LATE_EVERY_BLOCKS);

  const { open, late } = await syncWatch(db, network, options.port, { now, atBlock, withLate: lateDue });
  result.watched = open.length + late.length;
  if (result.watched > 0) await readAndRecord(db, network, atBlock, open, late, options, result);
  await db
    .insert(nativeBalancePolls)
    .values({ network, polledBlock: atBlock, polledAt: now })
    .onConflictDoUpdate({ target: nativeBalancePolls.network, set: { polledBlock: atBlock, polledAt: now } });
  return result;
}

async function readAndRecord(
  db: Db,
  network: string,
  atBlock: bigint,
  open: NativeBalanceWatchRow[],
  late: NativeBalanceWatchRow[],
  { record, port }: { record: TransferRecorder; port: NativeWatchPort },
  result: NativePollResult,
): Promise<void> {
  const client = publicClientFor(network);
  const call = <T>(p: Promise<T>) => {
    result.rpcCalls++;
    return p;
  };
  const headers = new BlockHeaders(client, call);
  const top = await headers.header(atBlock);
  const reached = (row: NativeBalanceWatchRow) =>
    row.deadlineBlock !== null ? row.deadlineBlock <= atBlock : top.timestamp.getTime() > row.deadline.getTime();

  // The soonest deadlines first (those past theirs before all), then the late ones, the most recent first.
  const byDeadline = (a: NativeBalanceWatchRow, b: NativeBalanceWatchRow) => a.deadline.getTime() - b.deadline.getTime();
  const rows = [...open.sort(byDeadline), ...late.sort((a, b) => byDeadline(b, a))];
  if (rows.length > NATIVE_POLL_MAX_ADDRESSES)
    log.warn({ network, watched: rows.length, read: NATIVE_POLL_MAX_ADDRESSES }, "more BNB deposit addresses to read than one poll reads");
  const chosen = rows.slice(0, NATIVE_POLL_MAX_ADDRESSES);
  const balances = await readNativeBalances(
    network,
    chosen.map((r) => r.address as Address),
    atBlock,
    { count: () => result.rpcCalls++ },
  );
  if (!balances) {
    log.warn({ network }, "the chain has no Multicall3: BNB sent by contracts is not read");
    return;
  }
  result.block = atBlock;
  result.read = chosen.length;

  // A first pass outside any transaction: most addresses hold no BNB and never received any (nothing
  // to explain); the rest are explained by the records (the recording transaction does it again).
  const received = await withNativeDeposits(
    db,
    network,
    chosen.filter((_, i) => balances[i] === 0n).map((r) => r.address),
    port,
  );
  const asked = chosen.filter((r, i) => balances[i] !== 0n || received.has(r.address));
  const accounts = await explainedBalances(
    db,
    network,
    asked.map((r) => r.address),
    atBlock,
    port,
  );
  const empty = { explained: 0n, moving: false };
  const readings: BalanceReading[] = [];
  const finals = new Map<string, bigint>();
  const atDeadline: { row: NativeBalanceWatchRow; balance: bigint }[] = [];
  for (const [i, row] of chosen.entries()) {
    const balance = balances[i];
    const account = balance === 0n && !received.has(row.address) ? empty : accounts.get(row.address);
    if (typeof balance !== "bigint" || !account) continue;
    if (account.moving) {
      result.moving++;
      continue;
    }
    const closing = row.finalBlock === null && reached(row);
    const unexplained = balance > account.explained;
    if (closing && unexplained) atDeadline.push({ row, balance });
    else if (unexplained) readings.push({ row, block: top, balance });
    else if (closing) finals.set(row.address, atBlock); // nothing arrived by now: nothing arrived by the deadline either
  }
  if (atDeadline.length > 0) readings.push(...(await deadlineReadings(network, atDeadline, top, headers, finals, result)));
  if (readings.length === 0 && finals.size === 0) return;
  const outcome = await recordReadings(db, network, readings, finals, record, port);
  result.recorded = outcome.recorded;
  result.moving += outcome.moving.length;
}

/**
 * For addresses past their deadline with something unexplained at `top`: the balance at the
 * deadline's block (in time) and at `top` (late), their deadline's read marked done. A node that
 * cannot answer for a block NATIVE_STATE_BLOCKS or more back makes it all late; for a recent one
 * the address waits for the next poll.
 */
async function deadlineReadings(
  network: string,
  due: { row: NativeBalanceWatchRow; balance: bigint }[],
  top: BlockHeader,
  headers: BlockHeaders,
  finals: Map<string, bigint>,
  result: NativePollResult,
): Promise<BalanceReading[]> {
  const readings: BalanceReading[] = [];
  const byBlock = new Map<bigint, { block: BlockHeader; rows: { row: NativeBalanceWatchRow; balance: bigint }[] }>();
  for (const item of due) {
    const { row } = item;
    const block =
      row.deadlineBlock !== null ? await headers.header(row.deadlineBlock) : await headers.lastAtOrBefore(row.deadline, top.number);
    // Nothing to read at the deadline (out of reach, or already read past it): all of it at `top`.
    if (!block || block.number <= row.recordedBlock || block.number === top.number) {
      readings.push({ row, block: top, balance: item.balance });
      finals.set(row.address, block && block.number <= top.number ? block.number : top.number);
      continue;
    }
    const group = byBlock.get(block.number) ?? { block, rows: [] };
    group.rows.push(item);
    byBlock.set(block.number, group);
  }
  for (const { block, rows } of byBlock.values()) {
    let balances: (bigint | null)[] | null;
    try {
      balances = await readNativeBalances(
        network,
        rows.map((r) => r.row.address as Address),
        block.number,
        { count: () => result.rpcCalls++ },
      );
    } catch (error) {
      if (top.number - block.number < NATIVE_STATE_BLOCKS) {
        // Read again next poll (the addresses' deadline reads stay to do); the other addresses go on.
        log.warn({ network, block: block.number, err: errorText(error) }, "a deadline's BNB balances did not read; next poll");
        continue;
      }
      log.warn({ network, block: block.number }, "the node no longer holds a deadline's block state: BNB found after it counts late");
      balances = null;
    }
    result.deadlineReads += rows.length;
    for (const [i, { row, balance }] of rows.entries()) {
      const then = balances?.[i];
      if (typeof then === "bigint") readings.push({ row, block, balance: then });
      readings.push({ row, block: top, balance });
      finals.set(row.address, block.number);
    }
  }
  return readings;
}
