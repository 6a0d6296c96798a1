-- The dashboard pages an endpoint's deliveries by keyset on (created_at, id): an index in that order
-- serves every page, the deepest included. It supersedes (endpoint_id, created_at).
CREATE INDEX IF NOT EXISTS "webhook_deliveries_endpoint_created_id_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");
--> statement-breakpoint
DROP INDEX IF EXISTS "webhook_deliveries_endpoint_created_idx";
--> statement-breakpoint
-- The gas page reads a window of days: gas_charges carries its ledger row's created_at (set with it,
-- in the same transaction), so (user_id, created_at) bounds the read instead of every charge the merchant ever had.
ALTER TABLE "gas_charges" ADD COLUMN IF NOT EXISTS "created_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
UPDATE "gas_charges" gc SET "created_at" = ct."created_at" FROM "chain_transactions" ct WHERE ct."id" = gc."chain_tx_id";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "gas_charges_user_created_idx" ON "gas_charges" USING btree ("user_id","created_at","chain_tx_id");
