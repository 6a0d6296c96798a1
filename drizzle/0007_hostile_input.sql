CREATE TABLE "token_catalogue" (
	"network" text NOT NULL,
	"contract_address" text NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"decimals" smallint NOT NULL,
	"min_forward_amount" numeric(78, 0) DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"added_by" text DEFAULT 'operator' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "token_catalogue_network_contract_address_pk" PRIMARY KEY("network","contract_address")
);
--> statement-breakpoint
CREATE TABLE "quarantined_logs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "quarantined_logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"network" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"contract_address" text NOT NULL,
	"topics" jsonb NOT NULL,
	"data" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "forwards_deposit_unique";--> statement-breakpoint
DROP INDEX "forwards_due_idx";--> statement-breakpoint
ALTER TABLE "payment_sessions" ALTER COLUMN "received_amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payment_sessions" ALTER COLUMN "received_amount" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "payment_sessions" ALTER COLUMN "late_amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "payment_sessions" ALTER COLUMN "late_amount" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "forwards" ALTER COLUMN "deposit_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "forwards" ALTER COLUMN "amount" SET DATA TYPE numeric;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "forward_id" bigint;--> statement-breakpoint
-- Existing deposits were all forwarded one by one: nothing for the planner to look at.
ALTER TABLE "deposits" ADD COLUMN "needs_planning" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deposits" ALTER COLUMN "needs_planning" SET DEFAULT true;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "sweep_reverts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "broadcast_error" text;--> statement-breakpoint
CREATE UNIQUE INDEX "quarantined_logs_chain_tx_log_unique" ON "quarantined_logs" USING btree ("network","tx_hash","log_index");--> statement-breakpoint
CREATE INDEX "quarantined_logs_network_idx" ON "quarantined_logs" USING btree ("network","created_at");--> statement-breakpoint
CREATE INDEX "domains_withdrawal_address_idx" ON "domains" USING btree ("withdrawal_address");--> statement-breakpoint
CREATE INDEX "deposits_forward_idx" ON "deposits" USING btree ("forward_id");--> statement-breakpoint
CREATE INDEX "deposits_unplanned_idx" ON "deposits" USING btree ("network","to_address") WHERE "deposits"."forward_id" is null;--> statement-breakpoint
CREATE INDEX "deposits_needs_planning_idx" ON "deposits" USING btree ("network","to_address") WHERE "deposits"."needs_planning";--> statement-breakpoint
CREATE INDEX "deposits_address_token_idx" ON "deposits" USING btree ("network","to_address","token_contract");--> statement-breakpoint
CREATE INDEX "forwards_deposit_idx" ON "forwards" USING btree ("deposit_id");--> statement-breakpoint
CREATE INDEX "forwards_group_idx" ON "forwards" USING btree ("network","from_address","token_contract");--> statement-breakpoint
CREATE INDEX "forwards_held_idx" ON "forwards" USING btree ("network") WHERE "forwards"."status" = 'held';--> statement-breakpoint
CREATE INDEX "forwards_due_idx" ON "forwards" USING btree ("next_attempt_at") WHERE "forwards"."status" in ('pending', 'gas_sent', 'sweep_sent');
--> statement-breakpoint
-- Sweeps now cover every unswept deposit of an address and token: link the existing one-to-one rows.
UPDATE "forwards" f SET "session_id" = d."session_id" FROM "deposits" d WHERE d."id" = f."deposit_id";--> statement-breakpoint
UPDATE "deposits" d SET "forward_id" = f."id" FROM "forwards" f WHERE f."deposit_id" = d."id";--> statement-breakpoint
-- A failed forward left funds on its address: it is now held, for the operator to see and retry.
UPDATE "forwards" SET "status" = 'held', "held_reason" = coalesce("last_error", 'failed'), "held_at" = now() WHERE "status" = 'failed';--> statement-breakpoint
-- The catalogue. BSC-USD (USDT) and Binance-Peg USDC on BNB Smart Chain, 18 decimals each
-- (addresses as published in the PancakeSwap and CoW Protocol token lists), swept from 0.1 token;
-- the embedded chain's demo token (deterministic address, see lib/chain/demo-token.ts).
INSERT INTO "token_catalogue" ("network", "contract_address", "symbol", "name", "decimals", "min_forward_amount", "added_by") VALUES
  ('bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether USD', 18, 100000000000000000, 'seed'),
  ('bsc', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 'USDC', 'USD Coin', 18, 100000000000000000, 'seed'),
  ('local', '0xe9bdd65d1d9B1898EBa08387D38Cc19BFe6b5CA2', 'DUSD', 'Demo USD', 18, 10000000000000000, 'seed')
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Tokens merchants registered before the catalogue existed stay accepted (the operator may disallow them).
INSERT INTO "token_catalogue" ("network", "contract_address", "symbol", "name", "decimals", "added_by")
SELECT DISTINCT ON ("network", "contract_address") "network", "contract_address", "symbol", "name", "decimals", 'merchant'
FROM "tokens" ORDER BY "network", "contract_address", "id"
ON CONFLICT DO NOTHING;
