/** A price feed is someone else's contract: every answer it can give, judged (lib/engine/chain/price-feeds.ts). */

import { describe, expect, it } from "vitest";
import { FEED_FUTURE_TOLERANCE_SECONDS, judgeFeed } from "@/lib/engine/chain/price-feeds";

const FEED = "0x5E861c255a7DbE937d9ca1b23Cc3ccDa594458ad";
const NOW = 1_800_000_000;
const round = (answer: bigint, updatedAt = BigInt(NOW - 5), roundId = 3n) => [roundId, answer, updatedAt, updatedAt, roundId] as const;

describe("a feed's answer", () => {
  it("is a reading when it is a positive price with sane decimals, updated by now", () => {
    expect(judgeFeed(FEED, 8, round(600_00000000n), NOW)).toEqual({
      ok: true,
      feed: FEED,
      answer: 600_00000000n,
      decimals: 8,
      updatedAt: NOW - 5,
      roundId: 3n,
    });
    expect(judgeFeed(FEED, 0, round(1n), NOW)).toMatchObject({ ok: true });
    expect(judgeFeed(FEED, 36, round(1n), NOW)).toMatchObject({ ok: true });
    expect(judgeFeed(FEED, 8, round(1n, BigInt(NOW + FEED_FUTURE_TOLERANCE_SECONDS)), NOW)).toMatchObject({ ok: true });
  });

  it("is unreadable when a call failed or answered something that is not a round", () => {
    expect(judgeFeed(FEED, null, round(1n), NOW)).toEqual({ ok: false, feed: FEED, problem: "unreadable" });
    expect(judgeFeed(FEED, 8, null, NOW)).toMatchObject({ problem: "unreadable" });
    expect(judgeFeed(FEED, 8n, round(1n), NOW)).toMatchObject({ problem: "unreadable" });
    expect(judgeFeed(FEED, 8, [1n, 2n, 3n], NOW)).toMatchObject({ problem: "unreadable" });
    expect(judgeFeed(FEED, 8, [1n, 2n, 3n, "4", 5n], NOW)).toMatchObject({ problem: "unreadable" });
    expect(judgeFeed(FEED, 8, "0x", NOW)).toMatchObject({ problem: "unreadable" });
  });

  it("is nonsense at a price ≤ 0, more than 36 decimals, an incomplete round or a time in the future", () => {
    expect(judgeFeed(FEED, 8, round(0n), NOW)).toMatchObject({ ok: false, problem: "answer-not-positive" });
    expect(judgeFeed(FEED, 8, round(-1n), NOW)).toMatchObject({ ok: false, problem: "answer-not-positive" });
    expect(judgeFeed(FEED, 37, round(1n), NOW)).toMatchObject({ ok: false, problem: "decimals-out-of-range" });
    expect(judgeFeed(FEED, 255, round(1n), NOW)).toMatchObject({ ok: false, problem: "decimals-out-of-range" });
    expect(judgeFeed(FEED, 1.5, round(1n), NOW)).toMatchObject({ ok: false, problem: "decimals-out-of-range" });
    expect(judgeFeed(FEED, -1, round(1n), NOW)).toMatchObject({ ok: false, problem: "decimals-out-of-range" });
    expect(judgeFeed(FEED, 8, round(1n, 0n), NOW)).toMatchObject({ ok: false, problem: "round-incomplete" });
    expect(judgeFeed(FEED, 8, round(1n, BigInt(NOW + FEED_FUTURE_TOLERANCE_SECONDS + 1)), NOW)).toMatchObject({
      ok: false,
      problem: "updated-in-future",
    });
    expect(judgeFeed(FEED, 8, round(1n, 2n ** 255n), NOW)).toMatchObject({ ok: false, problem: "updated-in-future" });
  });
});
