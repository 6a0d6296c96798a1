/**
 * The operator's price feed for a catalogue token (docs/design.md §23): its Chainlink USD feed, the
 * feed's heartbeat and whether it is a USD stablecoin. A feed is checked on the chain before it is
 * kept: it must answer `decimals()` and `latestRoundData()` with a positive price, as Chainlink does.
 */

import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { type CatalogueToken, tokenCatalogue } from "../../db/schema";
import { networkConfig } from "../../engine/chain/networks";
import { readPriceFeeds } from "../../engine/chain/price-feeds";
import { forgetAcceptedTokens } from "./accepted-tokens";

/** Chainlink's longest heartbeats are a day or two; a week is a typo, or no staleness bound at all. */
export const MAX_FEED_HEARTBEAT_SECONDS = 7 * 24 * 3600;

export type CatalogueFeedSetting = { feed: Address; heartbeatSeconds: number; pegged: boolean } | { feed: null };

export async function setCatalogueFeed(db: Db, network: string, contract: Address, setting: CatalogueFeedSetting): Promise<CatalogueToken> {
  if (!networkConfig(network)) throw new AppError("VALIDATION_ERROR", `network "${network}" is not configured on this server`);
  if (setting.feed !== null) {
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
  }
  const [row] = await db
    .update(tokenCatalogue)
    .set(
      setting.feed === null
        ? { usdFeed: null, feedHeartbeatSeconds: null, usdPegged: false, updatedAt: new Date() }
        : { usdFeed: setting.feed, feedHeartbeatSeconds: setting.heartbeatSeconds, usdPegged: setting.pegged, updatedAt: new Date() },
    )
    .where(and(eq(tokenCatalogue.network, network), eq(tokenCatalogue.contractAddress, contract)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", `${contract} is not in the catalogue of ${network}`);
  forgetAcceptedTokens();
  return row;
}

/** "feed 0x… heartbeat 86400 s, USD stablecoin" or "no price feed". */
export function describeCatalogueFeed(token: CatalogueToken): string {
  if (!token.usdFeed) return "no price feed";
  return `feed ${token.usdFeed} heartbeat ${token.feedHeartbeatSeconds ?? "?"} s${token.usdPegged ? ", USD stablecoin" : ""}`;
}
