ALTER TABLE "forwards" ADD COLUMN "gas_tx_id" bigint;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "sweep_tx_id" bigint;--> statement-breakpoint
-- Data move: the signed transactions of forwards become ledger rows. Completed forwards' are history
-- (mined); every other one is pending and the ledger settles it from its receipt, so nothing is
-- re-signed and only these bytes are ever sent again. The gas tank's address and the top-ups' fee
-- fields are read back from the signed bytes by lib/db/ledger-backfill.ts in the same migration run.
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "first_broadcast_at", "last_broadcast_at", "broadcasts", "settled_at", "created_at", "updated_at")
SELECT f."network", 'gas_tank', 0, '', f."gas_nonce", 'sweep_gas', f."from_address", coalesce(f."gas_amount", 0), 0, 0, f."gas_tx_hash", f."gas_raw_tx",
  CASE WHEN f."status" = 'completed' THEN 'mined' ELSE 'pending' END, f."updated_at", f."updated_at", 1,
  CASE WHEN f."status" = 'completed' THEN f."completed_at" END, f."created_at", now()
FROM "forwards" f WHERE f."gas_raw_tx" IS NOT NULL;--> statement-breakpoint
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "gas_used", "first_broadcast_at", "last_broadcast_at", "broadcasts", "settled_at", "created_at", "updated_at")
SELECT f."network", 'deposit', s."deposit_index", f."from_address", f."sweep_nonce", 'sweep', f."token_contract", 0, coalesce(f."sweep_gas_limit", 0), coalesce(f."gas_price", 0), f."sweep_tx_hash", f."sweep_raw_tx",
  CASE WHEN f."status" = 'completed' THEN 'mined' ELSE 'pending' END, CASE WHEN f."status" = 'completed' THEN f."gas_used" END, f."updated_at", f."updated_at", 1,
  CASE WHEN f."status" = 'completed' THEN f."completed_at" END, f."created_at", now()
FROM "forwards" f JOIN "payment_sessions" s ON s."network" = f."network" AND s."deposit_address" = f."from_address"
WHERE f."sweep_raw_tx" IS NOT NULL;--> statement-breakpoint
UPDATE "forwards" f SET "gas_tx_id" = c."id" FROM "chain_transactions" c WHERE f."gas_raw_tx" IS NOT NULL AND c."tx_hash" = f."gas_tx_hash";--> statement-breakpoint
UPDATE "forwards" f SET "sweep_tx_id" = c."id" FROM "chain_transactions" c WHERE f."sweep_raw_tx" IS NOT NULL AND c."tx_hash" = f."sweep_tx_hash";--> statement-breakpoint
ALTER TABLE "forwards" ADD CONSTRAINT "forwards_gas_tx_id_chain_transactions_id_fk" FOREIGN KEY ("gas_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwards" ADD CONSTRAINT "forwards_sweep_tx_id_chain_transactions_id_fk" FOREIGN KEY ("sweep_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwards" DROP COLUMN "gas_raw_tx";--> statement-breakpoint
ALTER TABLE "forwards" DROP COLUMN "sweep_raw_tx";