CREATE TABLE "chain_transactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chain_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"network" text NOT NULL,
	"wallet_role" text NOT NULL,
	"wallet_index" bigint NOT NULL,
	"wallet" text NOT NULL,
	"nonce" bigint NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"gas_limit" numeric(78, 0) NOT NULL,
	"gas_price" numeric(78, 0) NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"replaces_id" bigint,
	"replaced_by_id" bigint,
	"first_broadcast_at" timestamp with time zone,
	"last_broadcast_at" timestamp with time zone,
	"broadcasts" integer DEFAULT 0 NOT NULL,
	"broadcast_error" text,
	"nonce_used_seen_block" bigint,
	"stuck_since" timestamp with time zone,
	"mined_block" bigint,
	"gas_used" numeric(78, 0),
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Data move: every signed transaction the old trackers hold becomes a ledger row, in its state.
-- Gas top-ups of withdrawal wallets. gas_top_ups kept neither the sender nor the fee fields:
-- wallet '' is filled from the signed bytes by lib/db/ledger-backfill.ts in the same migration run.
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "first_broadcast_at", "last_broadcast_at", "broadcasts", "settled_at", "created_at", "updated_at")
SELECT g."network", 'gas_tank', 0, '', g."nonce", 'wallet_gas', g."to_address", g."value", 0, 0, g."tx_hash", g."raw_tx",
  CASE WHEN g."mined_at" IS NULL THEN 'pending' ELSE 'mined' END, g."created_at", g."created_at", 1, g."mined_at", g."created_at", now()
FROM "gas_top_ups" g;--> statement-breakpoint
-- Withdrawals, in their state: submitted → pending; completed → mined; failed → reverted, or replaced by its filler.
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "first_broadcast_at", "last_broadcast_at", "broadcasts", "broadcast_error", "settled_at", "created_at", "updated_at")
SELECT w."network", 'withdrawal', w."domain_id", w."from_address", w."nonce", 'withdrawal', t."contract_address", 0, w."gas_limit", w."gas_price", w."tx_hash", w."raw_tx",
  CASE WHEN w."status" = 'submitted' THEN 'pending'
       WHEN w."status" = 'completed' THEN 'mined'
       WHEN w."filler_tx_hash" IS NULL AND w."failure_reason" LIKE '%reverted%' THEN 'reverted'
       ELSE 'replaced' END,
  w."broadcast_at", w."broadcast_at", CASE WHEN w."broadcast_at" IS NULL THEN 0 ELSE 1 END, w."broadcast_error",
  CASE WHEN w."status" = 'submitted' THEN NULL ELSE coalesce(w."confirmed_at", w."updated_at") END, w."created_at", now()
FROM "withdrawals" w JOIN "tokens" t ON t."id" = w."token_id";--> statement-breakpoint
-- Their nonce fillers (0-value self-transfers): still to be mined while the withdrawal is open, or a legacy failed one's raw bytes are kept.
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "replaces_id", "first_broadcast_at", "last_broadcast_at", "broadcasts", "settled_at", "created_at", "updated_at")
SELECT w."network", 'withdrawal', w."domain_id", w."from_address", w."nonce", 'cancel', w."from_address", 0, 21000, (w."gas_price" * 12) / 10, w."filler_tx_hash", w."filler_raw_tx",
  CASE WHEN w."status" = 'submitted' OR w."filler_raw_tx" IS NOT NULL THEN 'pending' ELSE 'mined' END,
  c."id", w."updated_at", w."updated_at", 1,
  CASE WHEN w."status" = 'submitted' OR w."filler_raw_tx" IS NOT NULL THEN NULL ELSE w."updated_at" END, w."updated_at", now()
FROM "withdrawals" w JOIN "chain_transactions" c ON c."tx_hash" = w."tx_hash"
WHERE w."filler_tx_hash" IS NOT NULL;--> statement-breakpoint
-- A failed withdrawal whose filler was still to be mined: the chain decides again, through the ledger.
UPDATE "chain_transactions" o SET "status" = 'pending', "settled_at" = NULL
FROM "chain_transactions" c WHERE c."replaces_id" = o."id" AND c."status" = 'pending' AND o."kind" = 'withdrawal';--> statement-breakpoint
UPDATE "chain_transactions" o SET "replaced_by_id" = c."id"
FROM "chain_transactions" c WHERE c."replaces_id" = o."id" AND c."status" = 'mined' AND o."status" = 'replaced';--> statement-breakpoint
DROP TABLE "gas_top_ups" CASCADE;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "chain_tx_id" bigint;--> statement-breakpoint
UPDATE "withdrawals" w SET "chain_tx_id" = c."id" FROM "chain_transactions" c WHERE c."tx_hash" = w."tx_hash";--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "chain_tx_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD CONSTRAINT "chain_transactions_replaces_id_chain_transactions_id_fk" FOREIGN KEY ("replaces_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD CONSTRAINT "chain_transactions_replaced_by_id_chain_transactions_id_fk" FOREIGN KEY ("replaced_by_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transactions_hash_idx" ON "chain_transactions" USING btree ("tx_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transactions_nonce_idx" ON "chain_transactions" USING btree ("network","wallet","nonce") WHERE "chain_transactions"."replaces_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_transactions_replaces_idx" ON "chain_transactions" USING btree ("replaces_id") WHERE "chain_transactions"."replaces_id" is not null;--> statement-breakpoint
CREATE INDEX "chain_transactions_wallet_nonce_idx" ON "chain_transactions" USING btree ("network","wallet","nonce");--> statement-breakpoint
CREATE INDEX "chain_transactions_pending_idx" ON "chain_transactions" USING btree ("network","wallet") WHERE "chain_transactions"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_chain_tx_id_chain_transactions_id_fk" FOREIGN KEY ("chain_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "raw_tx";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "filler_tx_hash";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "filler_raw_tx";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "broadcast_error";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "broadcast_at";