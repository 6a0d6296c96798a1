/**
 * Fiat prices in tokens (docs/design.md §23): the bigint money rule (rate rounded down, amount rounded
 * up, value rounded down) and the rules of quoteTokens at their exact boundaries.
 */

import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { formatFiatAmount, parseFiatAmount } from "@/lib/domain/pricing/fiat";
import { feedsToRead, type PricedToken, quoteTokens, type TokenQuoteResult } from "@/lib/domain/pricing/quote-tokens";
import {
  fiatValueOfTokens,
  formatRate,
  ONE_USD,
  parseRate,
  rateUnits,
  tokenAmountForFiat,
  withinOfOneUsd,
} from "@/lib/domain/pricing/rates";
import { QUOTE_UNAVAILABLE_REASONS } from "@/lib/domain/pricing/reasons";
import type { FeedReading } from "@/lib/engine/chain/price-feeds";

const feed = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const USDT_FEED = feed(1);
const BNB_FEED = feed(2);
const EUR_FEED = feed(3);
const USDC6_FEED = feed(4);
const NOW = new Date("2026-11-27T12:00:00Z");
const NOW_S = NOW.getTime() / 1000;

const usdt: PricedToken = { tokenAddress: feed(0x11), decimals: 18, usdFeed: USDT_FEED, feedHeartbeatSeconds: 86_400, usdPegged: true };
const usdc6: PricedToken = { tokenAddress: feed(0x12), decimals: 6, usdFeed: USDC6_FEED, feedHeartbeatSeconds: 86_400, usdPegged: true };
const bnb: PricedToken = { tokenAddress: null, decimals: 18, usdFeed: BNB_FEED, feedHeartbeatSeconds: 60, usdPegged: false };

function answer(address: Address, value: bigint, updatedAt = NOW_S - 10, decimals = 8): [Address, FeedReading] {
  return [address, { ok: true, feed: address, answer: value, decimals, updatedAt, roundId: 7n }];
}

function quote(
  tokens: PricedToken[],
  readings: [Address, FeedReading][],
  { currency = "USD", amount = "25.00", currencyFeed = null as { usdFeed: Address; heartbeatSeconds: number } | null } = {},
): TokenQuoteResult[] {
  const fiat = parseFiatAmount(currency, amount);
  if (!fiat.ok) throw new Error(fiat.problem);
  return quoteTokens({ fiat: fiat.amount, tokens, currencyFeed, readings: new Map(readings), now: NOW });
}

/** One token's result, at a USDT/USD answer (8 decimals). */
const usdtAt = (value: bigint, updatedAt?: number) => quote([usdt], [answer(USDT_FEED, value, updatedAt)])[0];

describe("fiat amounts", () => {
  it("parse in the currency's minor units and write every minor digit", () => {
    expect(parseFiatAmount("USD", "25.00")).toEqual({ ok: true, amount: { currency: "USD", minor: 2500n, minorDigits: 2 } });
    expect(parseFiatAmount("EUR", "25")).toMatchObject({ ok: true, amount: { minor: 2500n } });
    expect(parseFiatAmount("EUR", "0.5")).toMatchObject({ ok: true, amount: { minor: 50n } });
    expect(parseFiatAmount("JPY", "100")).toMatchObject({ ok: true, amount: { minor: 100n, minorDigits: 0 } });
    expect(formatFiatAmount(2500n, 2)).toBe("25.00");
    expect(formatFiatAmount(5n, 2)).toBe("0.05");
    expect(formatFiatAmount(100n, 0)).toBe("100");
  });

  it("refuse more digits than the currency has, zero, signs, exponents and unknown currencies", () => {
    expect(parseFiatAmount("USD", "25.001")).toEqual({ ok: false, problem: "precision" });
    expect(parseFiatAmount("JPY", "100.5")).toEqual({ ok: false, problem: "precision" });
    expect(parseFiatAmount("USD", "0.00")).toEqual({ ok: false, problem: "zero" });
    for (const bad of ["-1", "+1", "1e3", " 1", "1,00", "", ".5", "0x10"])
      expect(parseFiatAmount("USD", bad)).toEqual({ ok: false, problem: "format" });
    for (const currency of ["XYZ", "usd", "", "toString", "__proto__"]) {
      expect(parseFiatAmount(currency, "1")).toEqual({ ok: false, problem: "currency-unsupported" });
    }
  });
});

describe("the money rule", () => {
  it("writes a rate with 8 decimals, rounded down from the feeds' exact ratio", () => {
    expect(formatRate(rateUnits({ answer: 600_00000000n, decimals: 8 }, ONE_USD))).toBe("600.00000000");
    // 1 / 1.08 = 0.925925925…: rounded down, never up.
    expect(formatRate(rateUnits(ONE_USD, { answer: 1_08000000n, decimals: 8 }))).toBe("0.92592592");
    expect(formatRate(rateUnits({ answer: 600_00000000n, decimals: 8 }, { answer: 1_08000000n, decimals: 8 }))).toBe("555.55555555");
    // An 18-decimal feed and a currency at 0 decimals say the same.
    expect(rateUnits({ answer: 600n * 10n ** 18n, decimals: 18 }, { answer: 108n, decimals: 2 })).toBe(55_555_555_555n);
    expect(rateUnits({ answer: 1n, decimals: 18 }, ONE_USD)).toBe(0n); // too small to write
  });

  it("parses a rate back, and nothing that is not one", () => {
    expect(parseRate("600.00000000")).toBe(60_000_000_000n);
    expect(parseRate("0.92592592")).toBe(92_592_592n);
    expect(parseRate("1")).toBe(100_000_000n);
    for (const bad of ["0", "0.00000000", "-1", "1.123456789", "abc", "1e3", "01.5", ""]) expect(parseRate(bad), bad).toBeNull();
  });

  it("rounds the token amount UP to the base unit, for 18 and 6 decimal tokens", () => {
    // 25 USD at 600 USD/BNB = 0.041666… BNB.
    expect(tokenAmountForFiat(2500n, 2, 60_000_000_000n, 18)).toBe(41_666_666_666_666_667n);
    expect(tokenAmountForFiat(2500n, 2, 100_000_000n, 18)).toBe(25n * 10n ** 18n);
    expect(tokenAmountForFiat(2500n, 2, 100_000_000n, 6)).toBe(25_000_000n);
    // 25 USD at 0.99: 25.2525… tokens.
    expect(tokenAmountForFiat(2500n, 2, 99_000_000n, 6)).toBe(25_252_526n);
    expect(tokenAmountForFiat(2500n, 2, 99_000_000n, 18)).toBe(25_252_525_252_525_252_526n);
    expect(tokenAmountForFiat(2n ** 255n, 2, 1n, 18)).toBeNull(); // beyond a uint256
    expect(() => tokenAmountForFiat(1n, 2, 0n, 18)).toThrow(RangeError);
  });

  it("values tokens rounding DOWN, and an amount's value is never below the price it was quoted for", () => {
    expect(fiatValueOfTokens(41_666_666_666_666_667n, 18, 60_000_000_000n, 2)).toBe(2500n);
    expect(fiatValueOfTokens(41_666_666_666_666_666n, 18, 60_000_000_000n, 2)).toBe(2499n); // one wei short
    expect(fiatValueOfTokens(25_252_526n, 6, 99_000_000n, 2)).toBe(2500n);
    expect(fiatValueOfTokens(25_252_525n, 6, 99_000_000n, 2)).toBe(2499n);
    expect(() => fiatValueOfTokens(1n, 2, -1n, 18)).toThrow(RangeError);

    // Deterministic sweep: value(amount(f)) ≥ f, and one base unit less pays strictly less than f.
    let seed = 12345n;
    const next = (mod: bigint) => {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return (seed % mod) + 1n;
    };
    for (let i = 0; i < 2000; i++) {
      const fiat = next(10n ** 9n);
      const rate = next(10n ** 14n);
      const decimals = [0, 6, 8, 18][i % 4] as number;
      const amount = tokenAmountForFiat(fiat, 2, rate, decimals) as bigint;
      expect(fiatValueOfTokens(amount, decimals, rate, 2) >= fiat).toBe(true);
      // Exact comparison of (amount − 1)·rate against fiat, both scaled: the amount is the least that pays.
      expect((amount - 1n) * rate * 100n < fiat * 10n ** BigInt(decimals) * 10n ** 8n).toBe(true);
    }
  });

  it("compares a price with 1 USD exactly, at the boundary", () => {
    const at = (answer: bigint) => ({ answer, decimals: 8 });
    expect(withinOfOneUsd(at(1_00500000n), 5n, 1000n)).toBe(true);
    expect(withinOfOneUsd(at(1_00500001n), 5n, 1000n)).toBe(false);
    expect(withinOfOneUsd(at(99_500000n), 5n, 1000n)).toBe(true);
    expect(withinOfOneUsd(at(99_499999n), 5n, 1000n)).toBe(false);
    expect(withinOfOneUsd({ answer: 1005n, decimals: 3 }, 5n, 1000n)).toBe(true);
  });
});

describe("quoteTokens", () => {
  it("prices a USD stablecoin at exactly 1 within ±0.5 % (inclusive)", () => {
    for (const value of [1_00000000n, 1_00500000n, 99_500000n]) {
      expect(usdtAt(value), String(value)).toMatchObject({ ok: true, rate: "1.00000000", amount: 25n * 10n ** 18n, offPeg: false });
    }
  });

  it("prices it at the feed's rate, flagged offPeg, from just past 0.5 % to 3 % (inclusive)", () => {
    expect(usdtAt(1_00500001n)).toMatchObject({ ok: true, rate: "1.00500001", offPeg: true });
    expect(usdtAt(99_499999n)).toMatchObject({ ok: true, rate: "0.99499999", offPeg: true });
    expect(usdtAt(99_000000n)).toMatchObject({ ok: true, rate: "0.99000000", amount: 25_252_525_252_525_252_526n, offPeg: true });
    expect(usdtAt(97_000000n)).toMatchObject({ ok: true, rate: "0.97000000", offPeg: true });
    expect(usdtAt(1_03000000n)).toMatchObject({ ok: true, rate: "1.03000000", offPeg: true });
  });

  it("does not offer it beyond 3 %", () => {
    for (const value of [96_999999n, 96_000000n, 1_03000001n, 50_000000n, 2n ** 200n]) {
      expect(usdtAt(value), String(value)).toMatchObject({ ok: false, unavailable: "depegged" });
    }
  });

  it("prices a token that is not a stablecoin (BNB) at its feed's rate, whatever it is", () => {
    const [q] = quote([bnb], [answer(BNB_FEED, 600_00000000n)]);
    expect(q).toMatchObject({ ok: true, tokenAddress: null, rate: "600.00000000", amount: 41_666_666_666_666_667n, offPeg: false });
    expect(quote([bnb], [answer(BNB_FEED, 96_000000n)])[0]).toMatchObject({ ok: true, rate: "0.96000000", offPeg: false });
  });

  it("a 6-decimal stablecoin gets 6-decimal amounts", () => {
    expect(quote([usdc6], [answer(USDC6_FEED, 1_00000000n)])[0]).toMatchObject({ ok: true, amount: 25_000_000n });
    expect(quote([usdc6], [answer(USDC6_FEED, 99_000000n)])[0]).toMatchObject({ ok: true, amount: 25_252_526n, offPeg: true });
  });

  it("is fresh up to exactly the heartbeat, stale one second later", () => {
    expect(usdtAt(1_00000000n, NOW_S - 86_400)).toMatchObject({ ok: true, feedUpdatedAt: new Date((NOW_S - 86_400) * 1000) });
    expect(usdtAt(1_00000000n, NOW_S - 86_401)).toMatchObject({ ok: false, unavailable: "feed-stale" });
    expect(quote([bnb], [answer(BNB_FEED, 600_00000000n, NOW_S - 61)])[0]).toMatchObject({ ok: false, unavailable: "feed-stale" });
  });

  it("never guesses: a token without a feed, a heartbeat, or a reading is unavailable", () => {
    const readings = [answer(USDT_FEED, 1_00000000n)];
    expect(quote([{ ...usdt, usdFeed: null }], readings)[0]).toMatchObject({ ok: false, unavailable: "feed-not-configured" });
    expect(quote([{ ...usdt, feedHeartbeatSeconds: null }], readings)[0]).toMatchObject({ ok: false, unavailable: "feed-not-configured" });
    expect(quote([{ ...usdt, feedHeartbeatSeconds: 0 }], readings)[0]).toMatchObject({ ok: false, unavailable: "feed-not-configured" });
    expect(quote([usdt], [])[0]).toMatchObject({ ok: false, unavailable: "feed-unreadable" });
  });

  it("treats a hostile feed's failures as unavailable, by kind", () => {
    const failed = (problem: "unreadable" | "answer-not-positive" | "decimals-out-of-range" | "round-incomplete" | "updated-in-future") =>
      quote([usdt], [[USDT_FEED, { ok: false, feed: USDT_FEED, problem }]])[0];
    expect(failed("unreadable")).toMatchObject({ ok: false, unavailable: "feed-unreadable" });
    for (const problem of ["answer-not-positive", "decimals-out-of-range", "round-incomplete", "updated-in-future"] as const) {
      expect(failed(problem), problem).toMatchObject({ ok: false, unavailable: "feed-invalid" });
    }
    // A price too small for the rate to write is not a quote of 0.
    expect(quote([bnb], [answer(BNB_FEED, 1n, NOW_S, 18)])[0]).toMatchObject({ ok: false, unavailable: "rate-out-of-range" });
  });

  it("prices in EUR through the EUR/USD feed, under the same staleness rule", () => {
    const currencyFeed = { usdFeed: EUR_FEED, heartbeatSeconds: 86_400 };
    const readings = [answer(USDT_FEED, 1_00000000n), answer(BNB_FEED, 600_00000000n), answer(EUR_FEED, 1_08000000n, NOW_S - 100)];
    const [q, b] = quote([usdt, bnb], readings, { currency: "EUR", currencyFeed });
    // 25 EUR = 27 USD; the rate (0.92592592 EUR per USDT) is rounded down, so the amount is a hair above 27.
    expect(q).toMatchObject({
      ok: true,
      rate: "0.92592592",
      amount: 27_000_000_172_800_001_106n,
      source: `chainlink:${USDT_FEED}/${EUR_FEED}`,
    });
    expect(b).toMatchObject({ ok: true, rate: "555.55555555", amount: 45_000_000_000_450_001n });
    expect(q?.ok && q.feedUpdatedAt).toEqual(new Date((NOW_S - 100) * 1000)); // the older of the two rounds
    expect(q?.ok && fiatValueOfTokens(q.amount, 18, parseRate(q.rate) as bigint, 2)).toBe(2500n);

    const stale = [readings[0]!, readings[1]!, answer(EUR_FEED, 1_08000000n, NOW_S - 86_401)];
    expect(quote([usdt, bnb], stale, { currency: "EUR", currencyFeed }).map((r) => !r.ok && r.unavailable)).toEqual([
      "currency-feed-stale",
      "currency-feed-stale",
    ]);
    expect(quote([usdt], readings, { currency: "EUR" })[0]).toMatchObject({ ok: false, unavailable: "currency-feed-not-configured" });
    const broken: [Address, FeedReading] = [EUR_FEED, { ok: false, feed: EUR_FEED, problem: "answer-not-positive" }];
    expect(quote([usdt], [readings[0]!, broken], { currency: "EUR", currencyFeed })[0]).toMatchObject({
      ok: false,
      unavailable: "currency-feed-invalid",
    });
    expect(quote([usdt], [readings[0]!], { currency: "EUR", currencyFeed })[0]).toMatchObject({ unavailable: "currency-feed-unreadable" });
  });

  it("answers every token in the order given, with its source, time and the token itself", () => {
    const tokens = [bnb, { ...usdt, usdFeed: null }, usdt];
    const results = quote(tokens, [answer(USDT_FEED, 1_00000000n), answer(BNB_FEED, 600_00000000n)]);
    expect(results.map((r) => r.token)).toEqual(tokens);
    expect(results[0]).toMatchObject({ ok: true, source: `chainlink:${BNB_FEED}`, quotedAt: NOW });
    expect(results[1]).toMatchObject({ ok: false, tokenAddress: usdt.tokenAddress });
    expect(results[2]).toMatchObject({ ok: true, tokenAddress: usdt.tokenAddress, source: `chainlink:${USDT_FEED}` });
    for (const r of results) if (!r.ok) expect(QUOTE_UNAVAILABLE_REASONS).toContain(r.unavailable);
  });

  it("names each feed to read once", () => {
    expect(feedsToRead([usdt, bnb, usdt, { ...usdt, usdFeed: null }], { usdFeed: EUR_FEED, heartbeatSeconds: 1 })).toEqual([
      USDT_FEED,
      BNB_FEED,
      EUR_FEED,
    ]);
    expect(feedsToRead([], null)).toEqual([]);
  });
});
