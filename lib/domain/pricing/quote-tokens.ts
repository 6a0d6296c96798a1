/**
 * The pricing rules (docs/design.md §23), one pure function: a fiat price, the tokens that may pay it
 * with their feeds' readings, and `now` → per token a quote (amount, rate, source, time) or the
 * reason it is not offered.
 *
 *   feed missing, unreadable, nonsense, or older than its heartbeat → unavailable, never a guess
 *   USD stablecoin (usdPegged): |price − 1| ≤ 0.5 % → exactly 1 USD
 *                               ≤ 3 %             → the feed's price, `offPeg` (tell the payer)
 *                               > 3 %             → not offered ("depegged")
 *   anything else (BNB)         → the feed's price
 *   a currency other than USD   → ÷ its own USD feed (EUR/USD), under the same staleness rule
 */

import type { Address } from "viem";
import type { FeedProblem, FeedReading } from "../../engine/chain/price-feeds";
import type { FiatAmount } from "./fiat";
import { formatRate, ONE_USD, rateUnits, tokenAmountForFiat, type UsdPrice, withinOfOneUsd } from "./rates";
import type { QuoteUnavailableReason } from "./reasons";

/** Within ±0.5 % of 1 USD a stablecoin is priced 1:1. */
export const PEG_EXACT = { numerator: 5n, denominator: 1000n } as const;
/** Beyond ±3 % a stablecoin is not offered. */
export const PEG_OFFERED = { numerator: 3n, denominator: 100n } as const;

/** What pricing needs of a catalogue token (token_catalogue's columns, or native BNB). */
export interface PricedToken {
  /** The token's contract; null: native BNB. */
  tokenAddress: Address | null;
  decimals: number;
  usdFeed: Address | null;
  feedHeartbeatSeconds: number | null;
  usdPegged: boolean;
}

/** A currency's USD feed (currency_feeds); null for USD itself. */
export interface CurrencyFeed {
  usdFeed: Address;
  heartbeatSeconds: number;
}

export interface TokenQuote<T extends PricedToken = PricedToken> {
  ok: true;
  token: T;
  tokenAddress: Address | null;
  /** Base units of the token that pay the price, rounded up. */
  amount: bigint;
  /** The fiat value of one whole token, RATE_DECIMALS decimals, rounded down ("600.00000000"). */
  rate: string;
  /** "chainlink:<token's USD feed>", then "/<currency's USD feed>" when the currency is not USD. */
  source: string;
  quotedAt: Date;
  /** The oldest round the quote used. */
  feedUpdatedAt: Date;
  /** A stablecoin priced at its feed's rate, 0.5–3 % away from 1 USD: the payer should be told. */
  offPeg: boolean;
}
export interface TokenUnavailable<T extends PricedToken = PricedToken> {
  ok: false;
  token: T;
  tokenAddress: Address | null;
  unavailable: QuoteUnavailableReason;
}
export type TokenQuoteResult<T extends PricedToken = PricedToken> = TokenQuote<T> | TokenUnavailable<T>;

export interface QuoteInput<T extends PricedToken> {
  fiat: FiatAmount;
  tokens: readonly T[];
  /** Required unless fiat.currency is USD. */
  currencyFeed: CurrencyFeed | null;
  /** readPriceFeeds' answer for every feed named by the tokens and the currency. */
  readings: ReadonlyMap<Address, FeedReading>;
  now: Date;
}

type Priced =
  | { ok: true; price: UsdPrice; updatedAt: number }
  | { ok: false; problem: "not-configured" | "unreadable" | "invalid" | "stale" };

/** A feed's reading under its heartbeat: stale when now − updatedAt > heartbeat (exactly the heartbeat is fresh). */
function freshPrice(
  feed: Address | null,
  heartbeat: number | null,
  readings: ReadonlyMap<Address, FeedReading>,
  nowSeconds: number,
): Priced {
  if (feed === null || heartbeat === null || !(heartbeat > 0)) return { ok: false, problem: "not-configured" };
  const reading = readings.get(feed);
  if (!reading) return { ok: false, problem: "unreadable" };
  if (!reading.ok) return { ok: false, problem: problemOf(reading.problem) };
  if (nowSeconds - reading.updatedAt > heartbeat) return { ok: false, problem: "stale" };
  return { ok: true, price: { answer: reading.answer, decimals: reading.decimals }, updatedAt: reading.updatedAt };
}

function problemOf(problem: FeedProblem): "unreadable" | "invalid" {
  return problem === "unreadable" ? "unreadable" : "invalid";
}

/** Every requested token's quote for `fiat`, or why it has none, in the order given. Pure. */
export function quoteTokens<T extends PricedToken>(input: QuoteInput<T>): TokenQuoteResult<T>[] {
  const { fiat, readings, now } = input;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const usd = fiat.currency === "USD";
  const currency: Priced = usd
    ? { ok: true, price: ONE_USD, updatedAt: Number.POSITIVE_INFINITY }
    : freshPrice(input.currencyFeed?.usdFeed ?? null, input.currencyFeed?.heartbeatSeconds ?? null, readings, nowSeconds);

  return input.tokens.map((token): TokenQuoteResult<T> => {
    const unavailable = (reason: QuoteUnavailableReason): TokenUnavailable<T> => ({
      ok: false,
      token,
      tokenAddress: token.tokenAddress,
      unavailable: reason,
    });
    if (!currency.ok) return unavailable(`currency-feed-${currency.problem}`);
    const own = freshPrice(token.usdFeed, token.feedHeartbeatSeconds, readings, nowSeconds);
    if (!own.ok) return unavailable(`feed-${own.problem}`);

    let price = own.price;
    let offPeg = false;
    if (token.usdPegged) {
      if (withinOfOneUsd(own.price, PEG_EXACT.numerator, PEG_EXACT.denominator)) price = ONE_USD;
      else if (withinOfOneUsd(own.price, PEG_OFFERED.numerator, PEG_OFFERED.denominator)) offPeg = true;
      else return unavailable("depegged");
    }
    const rate = rateUnits(price, currency.price);
    if (rate === 0n) return unavailable("rate-out-of-range");
    const amount = tokenAmountForFiat(fiat.minor, fiat.minorDigits, rate, token.decimals);
    if (amount === null) return unavailable("rate-out-of-range");
    // biome-ignore lint/style/noNonNullAssertion: freshPrice answered ok, so the token has a feed
    const source = `chainlink:${token.usdFeed!}${usd ? "" : `/${input.currencyFeed?.usdFeed}`}`;
    return {
      ok: true,
      token,
      tokenAddress: token.tokenAddress,
      amount,
      rate: formatRate(rate),
      source,
      quotedAt: now,
      feedUpdatedAt: new Date(Math.min(own.updatedAt, currency.updatedAt) * 1000),
      offPeg,
    };
  });
}

/** The feeds quoteTokens will look up for these tokens and currency: read them all in one readPriceFeeds. */
export function feedsToRead(tokens: readonly PricedToken[], currencyFeed: CurrencyFeed | null): Address[] {
  const feeds = tokens.flatMap((t) => (t.usdFeed ? [t.usdFeed] : []));
  if (currencyFeed) feeds.push(currencyFeed.usdFeed);
  return [...new Set(feeds)];
}
