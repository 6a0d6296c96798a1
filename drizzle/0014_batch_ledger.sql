ALTER TABLE "sweep_batches" ADD COLUMN "chain_tx_id" bigint;--> statement-breakpoint
-- Data move: batches and the sweep contracts' deployments become ledger rows, and so do the cancels
-- that filled a refused batch's nonce (each replacing its batch). Their recipient is read back from
-- the signed bytes by lib/db/ledger-backfill.ts in the same migration run.
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "gas_used", "broadcast_error", "first_broadcast_at", "last_broadcast_at", "broadcasts", "settled_at", "created_at", "updated_at")
SELECT b."network", 'gas_tank', 0, b."from_address", b."nonce", CASE WHEN b."kind" = 'sweep' THEN 'batch' ELSE 'deploy' END, '', 0, b."gas_limit", b."gas_price", b."tx_hash", b."raw_tx",
  CASE WHEN b."status" = 'sent' THEN 'pending' ELSE b."status" END, b."gas_used", b."last_error", b."created_at", b."updated_at", 1,
  CASE WHEN b."status" = 'sent' THEN NULL ELSE coalesce(b."mined_at", b."updated_at") END, b."created_at", now()
FROM "sweep_batches" b WHERE b."kind" <> 'cancel';--> statement-breakpoint
INSERT INTO "chain_transactions" ("network", "wallet_role", "wallet_index", "wallet", "nonce", "kind", "to_address", "value", "gas_limit", "gas_price", "tx_hash", "raw_tx", "status", "replaces_id", "gas_used", "first_broadcast_at", "last_broadcast_at", "broadcasts", "settled_at", "created_at", "updated_at")
SELECT b."network", 'gas_tank', 0, b."from_address", b."nonce", 'cancel', b."from_address", 0, b."gas_limit", b."gas_price", b."tx_hash", b."raw_tx",
  CASE WHEN b."status" = 'sent' THEN 'pending' ELSE b."status" END, o."id", b."gas_used", b."created_at", b."updated_at", 1,
  CASE WHEN b."status" = 'sent' THEN NULL ELSE coalesce(b."mined_at", b."updated_at") END, b."created_at", now()
FROM "sweep_batches" b
JOIN "chain_transactions" o ON o."network" = b."network" AND o."wallet" = b."from_address" AND o."nonce" = b."nonce" AND o."kind" IN ('batch', 'deploy')
WHERE b."kind" = 'cancel';--> statement-breakpoint
UPDATE "chain_transactions" o SET "replaced_by_id" = c."id"
FROM "chain_transactions" c WHERE c."replaces_id" = o."id" AND c."kind" = 'cancel' AND c."status" = 'mined' AND o."status" = 'replaced' AND o."replaced_by_id" IS NULL;--> statement-breakpoint
UPDATE "sweep_batches" b SET "chain_tx_id" = c."id" FROM "chain_transactions" c WHERE c."tx_hash" = b."tx_hash";--> statement-breakpoint
ALTER TABLE "sweep_batches" ADD CONSTRAINT "sweep_batches_chain_tx_id_chain_transactions_id_fk" FOREIGN KEY ("chain_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sweep_batches" DROP COLUMN "raw_tx";