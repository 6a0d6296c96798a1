import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "../columns";

/**
 * A fiat currency's Chainlink USD feed per network (EUR/USD, …; docs/design.md §23): a price in that
 * currency is divided by it. USD itself needs none. Seeded by migration 0031 (EUR on bsc and local).
 */
export const currencyFeeds = pgTable(
  "currency_feeds",
  {
    network: text("network").notNull(),
    /** ISO 4217, upper case. */
    currency: text("currency").notNull(),
    /** EIP-55 checksummed. */
    usdFeed: text("usd_feed").notNull(),
    heartbeatSeconds: integer("heartbeat_seconds").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.network, t.currency] })],
);

export type CurrencyFeedRow = typeof currencyFeeds.$inferSelect;
