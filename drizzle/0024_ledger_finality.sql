ALTER TABLE "chain_transactions" ADD COLUMN "nonce_used_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "receipt_block_hash" text;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "receipt_recheck_at" timestamp with time zone;