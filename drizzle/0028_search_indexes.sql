-- Dashboard search and lists served by indexes (docs/design.md §25, docs/dashboard.md).
-- The payments list pages by keyset (created_at, id) newest first, scoped to the merchant: this index replaces (user_id, created_at).
CREATE INDEX "payment_sessions_user_created_id_idx" ON "payment_sessions" USING btree ("user_id", "created_at" DESC, "id" DESC);--> statement-breakpoint
DROP INDEX IF EXISTS "payment_sessions_user_created_idx";--> statement-breakpoint
-- Search by order reference (exact or prefix, any case), completing transaction hash and deposit address (exact or prefix, any case).
-- Not partial: the planner uses an expression index's statistics only when the index is whole, and it needs them to
-- prefer these indexes over walking the whole history newest first.
CREATE INDEX "payment_sessions_user_order_search_idx" ON "payment_sessions" USING btree ("user_id", lower("order_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payment_sessions_user_tx_hash_search_idx" ON "payment_sessions" USING btree ("user_id", lower("tx_hash") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "payment_sessions_user_deposit_address_search_idx" ON "payment_sessions" USING btree ("user_id", lower("deposit_address") text_pattern_ops);--> statement-breakpoint
-- Search by a metadata value: jsonb_ops (not jsonb_path_ops) serves `metadata @@ '$.** == "v"'`, a value at any depth.
CREATE INDEX "payment_sessions_metadata_search_idx" ON "payment_sessions" USING gin ("metadata");--> statement-breakpoint
-- Search by the payer's address and by any deposit's transaction hash.
CREATE INDEX "deposits_from_address_search_idx" ON "deposits" USING btree (lower("from_address") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "deposits_tx_hash_search_idx" ON "deposits" USING btree (lower("tx_hash") text_pattern_ops);--> statement-breakpoint
-- A payment's page reads its sweeps by session.
CREATE INDEX "forwards_session_idx" ON "forwards" USING btree ("session_id");--> statement-breakpoint
-- The withdrawals list pages by keyset too: this index replaces (user_id, created_at).
CREATE INDEX "withdrawals_user_created_id_idx" ON "withdrawals" USING btree ("user_id", "created_at" DESC, "id" DESC);--> statement-breakpoint
DROP INDEX IF EXISTS "withdrawals_user_created_idx";
