import { eq } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import type { Db } from "@/lib/db";
import { chainCursors, nativeBalanceWatch } from "@/lib/db/schema";
import { nativeWatch } from "@/lib/domain/payments/native-watch";
import { recordTransfers } from "@/lib/domain/payments/record-transfers";
import { NATIVE_POLL_EVERY_BLOCKS, pollNativeBalances } from "@/lib/engine/scanner/native-balance-poll";

/**
 * The balance poller's cost (BNB contracts send with an internal call), part of
 * bench/native-bnb.ts (`bench:engine` (g), `bench:native`): over the open BNB sessions that bench
 * made, one poll's RPC calls, bytes and time, per block and per day at one poll every
 * NATIVE_POLL_EVERY_BLOCKS blocks; and a poll in which 50 addresses past their deadline hold BNB
 * nobody recorded (each then read again at its deadline's block).
 */

interface PollFigures {
  read: number;
  rpcCalls: number;
  requestBytes: number;
  responseBytes: number;
  ms: number;
  recorded: number;
}

/** Counts the bytes of every JSON-RPC request and answer made through fetch while `work` runs. */
async function countingBytes<T>(work: () => Promise<T>): Promise<{ result: T; requestBytes: number; responseBytes: number }> {
  const original = globalThis.fetch;
  let requestBytes = 0;
  let responseBytes = 0;
  globalThis.fetch = async (input, init) => {
    requestBytes += typeof init?.body === "string" ? init.body.length : 0;
    const res = await original(input, init);
    const text = await res.clone().text();
    responseBytes += text.length;
    return res;
  };
  try {
    return { result: await work(), requestBytes, responseBytes };
  } finally {
    globalThis.fetch = original;
  }
}

export interface PollerFigures {
  quiet: PollFigures;
  deadlines: PollFigures & { deadlineReads: number };
}

interface BenchChain {
  mine(args: { blocks: number }): Promise<unknown>;
  getBlock(): Promise<{ timestamp: bigint }>;
  setBalance(args: { address: Address; value: bigint }): Promise<unknown>;
}

/** Polls at the block `scan` has read up to (its first poll registers the addresses). */
export async function measurePoller(db: Db, chain: BenchChain, addresses: Address[], scan: () => Promise<unknown>): Promise<PollerFigures> {
  const poll = scan;
  const pollAt = async (everyBlocks = 0) => {
    const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.network, "bsc"));
    const started = performance.now();
    const { result, requestBytes, responseBytes } = await countingBytes(() =>
      pollNativeBalances(db, "bsc", { atBlock: cursor!.lastScannedBlock, port: nativeWatch, record: recordTransfers, everyBlocks }),
    );
    return {
      result,
      figures: {
        read: result.read,
        rpcCalls: result.rpcCalls,
        requestBytes,
        responseBytes,
        ms: Math.round(performance.now() - started),
        recorded: result.recorded,
      },
    };
  };
  await pollAt();
  await chain.mine({ blocks: NATIVE_POLL_EVERY_BLOCKS });
  await poll();
  const quietPoll = (await pollAt(NATIVE_POLL_EVERY_BLOCKS)).figures;
  // 50 addresses whose deadline passed a few seconds ago hold BNB nobody recorded (as if a contract paid them in their last seconds).
  await chain.mine({ blocks: NATIVE_POLL_EVERY_BLOCKS });
  await poll();
  const top = await chain.getBlock();
  const closing = addresses.slice(100, 150);
  for (const [i, address] of closing.entries()) {
    await chain.setBalance({ address, value: parseEther("0.01") });
    const deadline = new Date((Number(top.timestamp) - 1 - (i % 5)) * 1000);
    await db.update(nativeBalanceWatch).set({ deadline }).where(eq(nativeBalanceWatch.address, address));
  }
  await chain.mine({ blocks: 1 });
  await poll();
  const closingPoll = await pollAt();
  return { quiet: quietPoll, deadlines: { ...closingPoll.figures, deadlineReads: closingPoll.result.deadlineReads } };
}

/** BSC blocks a day at 0.45 s. */
const BLOCKS_PER_DAY = 192_000;

export function printPoller({ quiet, deadlines }: PollerFigures): void {
  const polls = BLOCKS_PER_DAY / NATIVE_POLL_EVERY_BLOCKS;
  const kb = (bytes: number) => `${(bytes / 1e3).toFixed(0)} kB`;
  console.log(
    `\n    balance poller (BNB sent by contracts), ${quiet.read.toLocaleString("en")} open BNB sessions, one poll every ${NATIVE_POLL_EVERY_BLOCKS} blocks:`,
  );
  console.log(
    `    one poll: ${quiet.rpcCalls} RPC calls (1 header + ${quiet.rpcCalls - 1} eth_call of ≤ 1,000 balances), request ${kb(quiet.requestBytes)}, response ${kb(quiet.responseBytes)}, ${quiet.ms} ms, ${quiet.recorded} recorded`,
  );
  console.log(
    `    → ${(quiet.rpcCalls / NATIVE_POLL_EVERY_BLOCKS).toFixed(1)} RPC calls per block, ${(quiet.rpcCalls * polls).toLocaleString("en")} per day (${polls.toLocaleString("en")} polls), ${(((quiet.requestBytes + quiet.responseBytes) * polls) / 1e9).toFixed(1)} GB a day`,
  );
  console.log(
    `    a poll with 50 addresses past their deadline holding unrecorded BNB: ${deadlines.rpcCalls} RPC calls (+${deadlines.rpcCalls - quiet.rpcCalls}: deadline blocks' headers and one eth_call per deadline block), ${deadlines.deadlineReads} deadline reads, ${deadlines.recorded} recorded, ${deadlines.ms} ms`,
  );
}
