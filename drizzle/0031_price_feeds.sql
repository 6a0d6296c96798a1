-- Fiat-priced sessions (DESIGN.md §23): each catalogue token's Chainlink USD feed, its heartbeat (seconds
-- after which a round is stale) and whether it is a USD stablecoin (the de-peg guard applies).
ALTER TABLE "token_catalogue" ADD COLUMN "usd_feed" text;--> statement-breakpoint
ALTER TABLE "token_catalogue" ADD COLUMN "feed_heartbeat_seconds" integer;--> statement-breakpoint
ALTER TABLE "token_catalogue" ADD COLUMN "usd_pegged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A currency's USD feed per network (EUR/USD, …): a price in that currency is divided by it. USD needs none.
CREATE TABLE "currency_feeds" (
	"network" text NOT NULL,
	"currency" text NOT NULL,
	"usd_feed" text NOT NULL,
	"heartbeat_seconds" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "currency_feeds_network_currency_pk" PRIMARY KEY("network","currency")
);--> statement-breakpoint
-- BSC mainnet: Chainlink's USDT/USD and USDC/USD proxies (lib/engine/chain/price-feed-addresses.ts says where
-- the addresses and the 24 h heartbeats come from).
UPDATE "token_catalogue" SET "usd_feed" = '0xB97Ad0E74fa7d920791E90258A6E2085088b4320', "feed_heartbeat_seconds" = 86400, "usd_pegged" = true
WHERE "network" = 'bsc' AND "contract_address" = '0x55d398326f99059fF775485246999027B3197955' AND "usd_feed" IS NULL;--> statement-breakpoint
UPDATE "token_catalogue" SET "usd_feed" = '0x51597f405303C4377E36123cBc172b13269EA163', "feed_heartbeat_seconds" = 86400, "usd_pegged" = true
WHERE "network" = 'bsc' AND "contract_address" = '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d' AND "usd_feed" IS NULL;--> statement-breakpoint
-- The embedded chain: the demo feeds' deterministic addresses (lib/engine/dev/demo-feeds.ts).
UPDATE "token_catalogue" SET "usd_feed" = '0x334ff0f62e58B95Da0A682aF658fE61070D72791', "feed_heartbeat_seconds" = 3600, "usd_pegged" = true
WHERE "network" = 'local' AND "contract_address" = '0xe9bdd65d1d9B1898EBa08387D38Cc19BFe6b5CA2' AND "usd_feed" IS NULL;--> statement-breakpoint
INSERT INTO "currency_feeds" ("network", "currency", "usd_feed", "heartbeat_seconds") VALUES
  ('bsc', 'EUR', '0x0bf79F617988C472DcA68ff41eFe1338955b9A80', 86400),
  ('local', 'EUR', '0x7B41F7Ec7EaF6f7953fCa3a550634Ed266A9286d', 3600)
ON CONFLICT DO NOTHING;