/**
 * The operator's feeds for the currencies merchants price in (docs/design.md §23): a currency other than
 * USD is priced through its Chainlink <currency>/USD feed on the network, stale after the feed's
 * heartbeat. Like a token's feed, it is checked on the chain before it is kept.
 */

import { and, asc, eq } from "drizzle-orm";
import type { Address } from "viem";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { currencyFeeds } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { readPriceFeeds } from "../../engine/chain/price-feeds";
import { MAX_FEED_HEARTBEAT_SECONDS } from "../tokens/catalogue-feeds";
import { FIAT_MINOR_UNITS, isSupportedCurrency } from "./fiat";

export type CurrencyFeedRow = typeof currencyFeeds.$inferSelect;

export type CurrencyFeedSetting = { feed: Address; heartbeatSeconds: number } | { feed: null };

function checkedCurrency(currency: string): string {
  if (currency === "USD")
    throw new AppError("VALIDATION_ERROR", "USD needs no feed: prices in USD are read from the tokens' own USD feeds");
  if (!isSupportedCurrency(currency)) {
    const supported = Object.keys(FIAT_MINOR_UNITS).filter((c) => c !== "USD");
    throw new AppError("VALIDATION_ERROR", `currency must be one of ${supported.join(", ")} (ISO 4217, upper case)`);
  }
  return currency;
}

/** Sets (or with `feed: null` removes) the currency's USD feed on the network. */
export async function setCurrencyFeed(
  db: Db,
  network: string,
  currency: string,
  setting: CurrencyFeedSetting,
): Promise<CurrencyFeedRow | null> {
  if (!networkConfig(network)) throw new AppError("VALIDATION_ERROR", `network "${network}" is not configured on this server`);
  const code = checkedCurrency(currency);
  if (setting.feed === null) {
    const [removed] = await db
      .delete(currencyFeeds)
      .where(and(eq(currencyFeeds.network, network), eq(currencyFeeds.currency, code)))
      .returning();
    if (!removed) throw new AppError("NOT_FOUND", `${code} has no feed on ${network}`);
    return null;
  }
  const { heartbeatSeconds } = setting;
  if (!Number.isSafeInteger(heartbeatSeconds) || heartbeatSeconds < 1 || heartbeatSeconds > MAX_FEED_HEARTBEAT_SECONDS) {
    throw new AppError("VALIDATION_ERROR", `the heartbeat must be a whole number of seconds from 1 to ${MAX_FEED_HEARTBEAT_SECONDS}`);
  }
  const reading = (await readPriceFeeds(network, [setting.feed])).get(setting.feed);
  if (!reading?.ok) {
    throw new AppError(
      "VALIDATION_ERROR",
      `${setting.feed} does not answer like a Chainlink price feed on ${network} (${reading?.problem ?? "unreadable"})`,
    );
  }
  const values = { usdFeed: setting.feed, heartbeatSeconds, updatedAt: new Date() };
  const [row] = await db
    .insert(currencyFeeds)
    .values({ network, currency: code, ...values })
    .onConflictDoUpdate({ target: [currencyFeeds.network, currencyFeeds.currency], set: values })
    .returning();
  // biome-ignore lint/style/noNonNullAssertion: an upsert's RETURNING always has its row
  return row!;
}

export async function listCurrencyFeeds(db: Db, network?: string): Promise<CurrencyFeedRow[]> {
  return db
    .select()
    .from(currencyFeeds)
    .where(network ? eq(currencyFeeds.network, network) : undefined)
    .orderBy(asc(currencyFeeds.network), asc(currencyFeeds.currency));
}

/** "bsc EUR  feed 0x… heartbeat 86400 s". */
export function describeCurrencyFeed(row: CurrencyFeedRow): string {
  return `${row.network} ${row.currency}  feed ${row.usdFeed} heartbeat ${row.heartbeatSeconds} s`;
}
