/**
 * What the merchant received, in the account's currency (users.account_currency; docs/Pricing in
 * fiat, docs/design.md §23). Every value comes from something recorded, never a rate guessed later:
 *
 * - a fiat-priced payment: what it received at its own locked rate, in its own currency
 *   (⌊fiat_amount × received ÷ amount⌋, kept in payment_day_totals.value as it completes);
 * - a token-priced payment of a USD-pegged stablecoin (the catalogue's usd_pegged): 1:1 USD;
 * - any other token-priced payment (BNB, a token without a peg): not valued — shown in its token only.
 *
 * A value in another currency than the account's (a USD payment on a EUR account) is converted at
 * today's rate of the two currencies' Chainlink USD feeds (currency_feeds), rounded down, and the
 * rate and its time are shown beside; a currency without a fresh rate now is shown apart,
 * unconverted. Rates are read at most once a minute per currency (RATE_CACHE_MS).
 */

import { and, eq, gte, sql } from "drizzle-orm";
import { formatAmount } from "../../../base/money";
import type { Db } from "../../../db";
import { paymentDayTotals, tokenCatalogue, tokens } from "../../../db/schema";
import { FIAT_MINOR_UNITS, formatFiatAmount } from "../../../domain/pricing/fiat";
import { findCurrencyFeed } from "../../../domain/pricing/price-tokens";
import { fiatValueOfTokens, formatRate, ONE_USD, rateUnits, type UsdPrice } from "../../../domain/pricing/rates";
import { listNetworks } from "../../../engine/chain/networks";
import { readPriceFeeds } from "../../../engine/chain/price-feeds";

/** How long a currency's USD price (or its absence) is reused before the feed is read again. */
export const RATE_CACHE_MS = 60_000;
/** How long a page or an export waits for a rate before it shows that currency unconverted. */
export const RATE_WAIT_MS = 2_000;

export const minorDigitsOf = (currency: string) => FIAT_MINOR_UNITS[currency] ?? 2;

/** A recorded value: minor units of `currency`. */
export interface RecordedValue {
  currency: string;
  minor: bigint;
}

/**
 * The value of `received` base units of a token-priced payment, or null when it has none: 1:1 USD
 * for a USD-pegged stablecoin (rounded down to the cent), nothing for any other token.
 */
export function pegValue(received: bigint, decimals: number, usdPegged: boolean): RecordedValue | null {
  if (!usdPegged) return null;
  return { currency: "USD", minor: fiatValueOfTokens(received, decimals, 10n ** 8n, minorDigitsOf("USD")) };
}

/** A conversion between two currencies at today's rate: `rate` of `to` per one `from`. */
export interface Conversion {
  from: string;
  to: string;
  /** Rate units (10^-8), rounded down. */
  units: bigint;
  /** The rate's text, 8 decimals. */
  rate: string;
  /** The oldest of the feeds' rounds it comes from (ISO 8601); null for USD to USD. */
  asOf: string | null;
}

/** Minor units of `from` → minor units of `conversion.to`, rounded down. */
export function convertMinor(minor: bigint, conversion: Conversion): bigint {
  return fiatValueOfTokens(minor, minorDigitsOf(conversion.from), conversion.units, minorDigitsOf(conversion.to));
}

interface UsdPriceNow {
  price: UsdPrice;
  /** Unix seconds; null for USD itself. */
  updatedAt: number | null;
}

const priceCache = new Map<string, { at: number; price: Promise<UsdPriceNow | null> }>();

/** Forgets cached rates (tests). */
export function clearRateCache(): void {
  priceCache.clear();
}

/** A currency's USD price now, from its feed on the first network that has one and answers fresh; null when none does. */
async function usdPriceNow(db: Db, currency: string, now: Date): Promise<UsdPriceNow | null> {
  if (currency === "USD") return { price: ONE_USD, updatedAt: null };
  const cached = priceCache.get(currency);
  if (cached && now.getTime() - cached.at < RATE_CACHE_MS) return cached.price;
  // A node that does not answer costs a page at most RATE_WAIT_MS, then a minute without that rate.
  const price = Promise.race([
    readUsdPrice(db, currency, now).catch(() => null),
    new Promise<null>((resolve) => setTimeout(resolve, RATE_WAIT_MS, null).unref()),
  ]);
  priceCache.set(currency, { at: now.getTime(), price });
  return price;
}

async function readUsdPrice(db: Db, currency: string, now: Date): Promise<UsdPriceNow | null> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  for (const network of listNetworks()) {
    const feed = await findCurrencyFeed(db, network.name, currency);
    if (!feed) continue;
    const reading = (await readPriceFeeds(network.name, [feed.usdFeed], { now })).get(feed.usdFeed);
    // A stale round is no rate: the same staleness bound as a quote's (the feed's heartbeat).
    if (reading?.ok && reading.updatedAt + feed.heartbeatSeconds >= nowSeconds)
      return { price: { answer: reading.answer, decimals: reading.decimals }, updatedAt: reading.updatedAt };
  }
  return null;
}

/** Today's rate from `from` to `to` (identity when equal); null when either has no fresh feed now. */
export async function todaysConversion(db: Db, from: string, to: string, now = new Date()): Promise<Conversion | null> {
  if (from === to) return { from, to, units: 10n ** 8n, rate: formatRate(10n ** 8n), asOf: null };
  const [a, b] = await Promise.all([usdPriceNow(db, from, now), usdPriceNow(db, to, now)]);
  if (!a || !b) return null;
  const units = rateUnits(a.price, b.price);
  if (units <= 0n) return null;
  const times = [a.updatedAt, b.updatedAt].filter((t): t is number => t !== null);
  return { from, to, units, rate: formatRate(units), asOf: times.length ? new Date(Math.min(...times) * 1000).toISOString() : null };
}

export interface AccountVolume {
  /** The account's currency. */
  currency: string;
  /** Everything valued and converted, in the account's currency ("1234.56"). */
  total: string;
  /** One per day: `day` and the account-currency value (exact decimal string) per token symbol. */
  points: { day: string; [symbol: string]: string }[];
  /** The tokens with a value, for the chart's series. */
  symbols: string[];
  /** The recorded values by their own currency, each with its conversion (null: no rate now, left out of `total`). */
  byCurrency: { currency: string; total: string; converted: string | null; conversion: Conversion | null }[];
  /** Tokens received without a value (token-priced, not a USD stablecoin): their token totals. */
  notValued: { symbol: string; total: string }[];
}

/**
 * Completed volume over `days` UTC days in `currency`, from the day totals (never the sessions):
 * one grouped read of at most days × tokens × currencies rows, and a cached rate per other currency.
 */
export async function accountVolume(db: Db, userId: number, currency: string, days: 7 | 30, now = new Date()): Promise<AccountVolume> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db
    .select({
      day: paymentDayTotals.day,
      symbol: tokens.symbol,
      decimals: tokens.decimals,
      fiatCurrency: paymentDayTotals.fiatCurrency,
      usdPegged: sql<boolean>`coalesce(${tokenCatalogue.usdPegged}, false)`,
      received: sql<string>`sum(${paymentDayTotals.received})::text`,
      value: sql<string>`sum(${paymentDayTotals.value})::text`,
    })
    .from(paymentDayTotals)
    .innerJoin(tokens, eq(tokens.id, paymentDayTotals.tokenId))
    .leftJoin(tokenCatalogue, and(eq(tokenCatalogue.network, tokens.network), eq(tokenCatalogue.contractAddress, tokens.contractAddress)))
    .where(
      and(
        eq(paymentDayTotals.userId, userId),
        eq(paymentDayTotals.status, "completed"),
        gte(paymentDayTotals.day, since.toISOString().slice(0, 10)),
      ),
    )
    .groupBy(paymentDayTotals.day, tokens.symbol, tokens.decimals, paymentDayTotals.fiatCurrency, tokenCatalogue.usdPegged);

  const valued = rows.map((r) => ({
    ...r,
    recorded:
      r.fiatCurrency !== null
        ? { currency: r.fiatCurrency, minor: BigInt(r.value) }
        : pegValue(BigInt(r.received), r.decimals, Boolean(r.usdPegged)),
  }));
  const currencies = [...new Set(valued.flatMap((r) => (r.recorded ? [r.recorded.currency] : [])))].sort();
  const conversions = new Map(await Promise.all(currencies.map(async (c) => [c, await todaysConversion(db, c, currency, now)] as const)));

  const digits = minorDigitsOf(currency);
  const perDay = new Map<string, Map<string, bigint>>();
  const byCurrency = new Map<string, bigint>();
  const notValued = new Map<string, { units: bigint; decimals: number }>();
  for (const r of valued) {
    if (!r.recorded) {
      const t = notValued.get(r.symbol) ?? { units: 0n, decimals: r.decimals };
      t.units += BigInt(r.received);
      notValued.set(r.symbol, t);
      continue;
    }
    byCurrency.set(r.recorded.currency, (byCurrency.get(r.recorded.currency) ?? 0n) + r.recorded.minor);
    const conversion = conversions.get(r.recorded.currency);
    if (!conversion) continue;
    const day = perDay.get(r.day) ?? new Map<string, bigint>();
    day.set(r.symbol, (day.get(r.symbol) ?? 0n) + convertMinor(r.recorded.minor, conversion));
    perDay.set(r.day, day);
  }

  const symbols = [...new Set([...perDay.values()].flatMap((d) => [...d.keys()]))].sort();
  const points: AccountVolume["points"] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const point: AccountVolume["points"][number] = { day };
    for (const symbol of symbols) {
      point[symbol] = formatFiatAmount(perDay.get(day)?.get(symbol) ?? 0n, digits);
    }
    points.push(point);
  }
  // Each currency's sum converted once (the chart's days are converted one by one, so may differ by a minor unit).
  let total = 0n;
  const perCurrency = [...byCurrency].map(([c, minor]) => {
    const conversion = conversions.get(c) ?? null;
    const converted = conversion ? convertMinor(minor, conversion) : null;
    if (converted !== null) total += converted;
    return {
      currency: c,
      total: formatFiatAmount(minor, minorDigitsOf(c)),
      converted: converted === null ? null : formatFiatAmount(converted, digits),
      conversion,
    };
  });
  return {
    currency,
    total: formatFiatAmount(total, digits),
    points,
    symbols,
    byCurrency: perCurrency,
    notValued: [...notValued].map(([symbol, t]) => ({ symbol, total: formatAmount(t.units, t.decimals) })),
  };
}
