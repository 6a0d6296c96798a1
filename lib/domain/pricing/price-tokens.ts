/**
 * Quotes for a fiat price on one network, from the database and the chain: the catalogue rows the
 * caller chose, the currency's USD feed (currency_feeds), every feed read in one multicall, then the
 * pure rules of quote-tokens.ts.
 */

import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "../../db";
import { type CatalogueToken, currencyFeeds } from "../../db/schema";
import { readPriceFeeds } from "../../engine/chain/price-feeds";
import type { FiatAmount } from "./fiat";
import { type CurrencyFeed, feedsToRead, type PricedToken, quoteTokens, type TokenQuoteResult } from "./quote-tokens";

/** A catalogue row as pricing sees it (its contract, decimals, feed, heartbeat, peg). */
export function pricedCatalogueToken(row: CatalogueToken): PricedToken & { row: CatalogueToken } {
  return {
    row,
    tokenAddress: row.contractAddress as Address,
    decimals: row.decimals,
    usdFeed: (row.usdFeed as Address | null) ?? null,
    feedHeartbeatSeconds: row.feedHeartbeatSeconds,
    usdPegged: row.usdPegged,
  };
}

/** The currency's USD feed on the network; null for USD, and for a currency with no feed there. */
export async function findCurrencyFeed(db: Db, network: string, currency: string): Promise<CurrencyFeed | null> {
  if (currency === "USD") return null;
  const [row] = await db
    .select()
    .from(currencyFeeds)
    .where(and(eq(currencyFeeds.network, network), eq(currencyFeeds.currency, currency)));
  return row ? { usdFeed: row.usdFeed as Address, heartbeatSeconds: row.heartbeatSeconds } : null;
}

/**
 * Each token's quote for `fiat` on `network` now (or why it has none), in the order given. One
 * database read and one multicall; a node that does not answer throws (BLOCKCHAIN_ERROR upstream),
 * a feed that misbehaves makes its token unavailable.
 */
export async function quoteTokensOnChain<T extends PricedToken>(
  db: Db,
  input: { network: string; fiat: FiatAmount; tokens: readonly T[]; now?: Date },
): Promise<TokenQuoteResult<T>[]> {
  const now = input.now ?? new Date();
  const currencyFeed = await findCurrencyFeed(db, input.network, input.fiat.currency);
  const feeds = feedsToRead(input.tokens, currencyFeed);
  const readings = feeds.length > 0 ? await readPriceFeeds(input.network, feeds, { now }) : new Map();
  return quoteTokens({ fiat: input.fiat, tokens: input.tokens, currencyFeed, readings, now });
}
