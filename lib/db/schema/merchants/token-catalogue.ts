import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { amount, createdAt, updatedAt } from "../columns";

/**
 * The tokens this gateway accepts, per network: the operator's decision (npm run admin -- tokens
 * allow|disallow|list). Merchants register tokens from it; the scanner reads logs of enabled
 * entries only. Seeded by migration with well-known stablecoins and the local demo token.
 */
export const tokenCatalogue = pgTable(
  "token_catalogue",
  {
    network: text("network").notNull(),
    /** EIP-55 checksummed. */
    contractAddress: text("contract_address").notNull(),
    symbol: text("symbol").notNull(),
    name: text("name").notNull(),
    decimals: smallint("decimals").notNull(),
    /**
     * Base units below which a deposit is not swept on its own: it waits until the address's
     * unswept balance of this token reaches this, or its session completes.
     */
    minForwardAmount: amount("min_forward_amount").notNull().default(sql`0`),
    /**
     * Base units below which a withdrawal of this token is refused (every send costs the gas tank
     * a top-up). Null: the minimum forward, or 0.01 of the token when that is 0.
     */
    minWithdrawalAmount: amount("min_withdrawal_amount"),
    /**
     * Base units below which a payment session (API, dashboard, payment link) is refused: a dust
     * session's completing sweep would cost the gas tank more than it moves. Null: the minimum forward.
     */
    minPaymentAmount: amount("min_payment_amount"),
    /** The token's Chainlink USD feed (AggregatorV3Interface), EIP-55; null: no fiat price (docs/design.md §23). */
    usdFeed: text("usd_feed"),
    /** Seconds after which the feed's latest round is stale (the feed's heartbeat); null: not set, no fiat price. */
    feedHeartbeatSeconds: integer("feed_heartbeat_seconds"),
    /** A USD stablecoin: 1:1 within ±0.5 % of 1 USD, at the feed's rate up to 3 %, not offered beyond. */
    usdPegged: boolean("usd_pegged").notNull().default(false),
    enabled: boolean("enabled").notNull().default(true),
    /** "operator", "seed", or "merchant" (added through OPEN_TOKEN_REGISTRATION). */
    addedBy: text("added_by").notNull().default("operator"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.network, t.contractAddress] })],
);

export type CatalogueToken = typeof tokenCatalogue.$inferSelect;
