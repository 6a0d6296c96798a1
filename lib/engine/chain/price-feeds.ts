/**
 * Reads Chainlink price feeds (AggregatorV3Interface: `decimals()` and `latestRoundData()`) in one
 * multicall (docs/design.md §23). A feed is a contract someone else wrote: one that reverts, answers
 * garbage, a price ≤ 0, more than 36 decimals, a round never completed or one "updated" in the
 * future reads as a failure with its problem, never as a price, and cannot stop the others being
 * read. Whether a good reading is fresh enough is the caller's rule (lib/domain/pricing).
 */

import type { Abi, Address } from "viem";
import { readContracts } from "./multicall";

export const aggregatorV3Abi = [
  { type: "function", name: "decimals", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint8" }] },
  {
    type: "function",
    name: "latestRoundData",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "roundId", type: "uint80" },
      { name: "answer", type: "int256" },
      { name: "startedAt", type: "uint256" },
      { name: "updatedAt", type: "uint256" },
      { name: "answeredInRound", type: "uint80" },
    ],
  },
] as const satisfies Abi;

/** More decimals than any real feed uses (Chainlink's: 8 or 18); beyond this the arithmetic is nonsense. */
export const MAX_FEED_DECIMALS = 36;
/**
 * How far past our clock a round's updatedAt may be: the node's and the server's clocks differ by a
 * second or two (BSC stamps blocks in whole seconds). A round "updated" later than this is a lie.
 */
export const FEED_FUTURE_TOLERANCE_SECONDS = 60;

export type FeedProblem =
  /** The call reverted, ran out of gas or answered bytes that do not decode. */
  | "unreadable"
  | "answer-not-positive"
  | "decimals-out-of-range"
  /** updatedAt 0: Chainlink's mark of a round that never completed. */
  | "round-incomplete"
  | "updated-in-future";

export interface FeedAnswer {
  ok: true;
  feed: Address;
  /** The price in units of 10^-decimals (Chainlink's USD feeds: 8 decimals, 600.00 = 60_000_000_000n). */
  answer: bigint;
  decimals: number;
  /** Unix seconds. */
  updatedAt: number;
  roundId: bigint;
}
export interface FeedFailure {
  ok: false;
  feed: Address;
  problem: FeedProblem;
}
export type FeedReading = FeedAnswer | FeedFailure;

type RoundData = readonly [bigint, bigint, bigint, bigint, bigint];

/**
 * Every feed's latest round, two calls per feed in one Multicall3 batch (parallel single reads on a
 * chain without Multicall3); when the whole batch fails, each feed on its own. A feed that
 * misbehaves reads as a FeedFailure; so does every feed when the node does not answer (viem's
 * multicall reports a failed batch as failed calls): never a price either way. Keyed by the addresses as given (duplicates are read once). `now` is the clock that
 * a round may not be ahead of (default: this machine's).
 */
export async function readPriceFeeds(
  network: string,
  feeds: readonly Address[],
  options: { now?: Date; blockNumber?: bigint } = {},
): Promise<Map<Address, FeedReading>> {
  const unique = [...new Set(feeds)];
  const read = (some: Address[]) => readContracts<unknown>(network, some.flatMap(feedCalls), { blockNumber: options.blockNumber });
  let answers = await read(unique);
  if (unique.length > 1 && answers.every((answer) => answer === null)) {
    // Multicall3 gives each call all but 1/64 of the gas left: two calls that burn all they get
    // (one hostile feed's decimals and latestRoundData) starve the rest and the whole batch fails.
    // Then each feed alone, so one bad feed costs only itself.
    answers = [];
    for (let start = 0; start < unique.length; start += ALONE_AT_A_TIME) {
      const alone = await Promise.all(unique.slice(start, start + ALONE_AT_A_TIME).map((feed) => read([feed])));
      answers.push(...alone.flat());
    }
  }
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  return new Map(unique.map((feed, i) => [feed, judgeFeed(feed, answers[2 * i], answers[2 * i + 1], nowSeconds)]));
}

/** Feeds read one by one at a time, after a batch that failed whole. */
const ALONE_AT_A_TIME = 8;

function feedCalls(address: Address) {
  return [
    { address, abi: aggregatorV3Abi, functionName: "decimals", args: [] },
    { address, abi: aggregatorV3Abi, functionName: "latestRoundData", args: [] },
  ];
}

/** One feed's two answers (null: the call failed) → a reading or the problem with it. Pure. */
export function judgeFeed(feed: Address, decimals: unknown, round: unknown, nowSeconds: number): FeedReading {
  const fail = (problem: FeedProblem): FeedFailure => ({ ok: false, feed, problem });
  if (typeof decimals !== "number" || !isRoundData(round)) return fail("unreadable");
  const [roundId, answer, , updatedAt] = round;
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_FEED_DECIMALS) return fail("decimals-out-of-range");
  if (answer <= 0n) return fail("answer-not-positive");
  if (updatedAt === 0n) return fail("round-incomplete");
  if (updatedAt > BigInt(nowSeconds + FEED_FUTURE_TOLERANCE_SECONDS)) return fail("updated-in-future");
  return { ok: true, feed, answer, decimals, updatedAt: Number(updatedAt), roundId };
}

function isRoundData(value: unknown): value is RoundData {
  return Array.isArray(value) && value.length === 5 && value.every((v) => typeof v === "bigint");
}
