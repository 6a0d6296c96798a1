CREATE TABLE "abuse_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "nonce_used_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "receipt_block_hash" text;--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "receipt_recheck_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "kind" text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT '{payments:write,payments:read,refunds,withdrawals,payouts}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "pending_payout_address" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "payout_change_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "payout_change_effective_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "payout_change_requested_by" integer;--> statement-breakpoint
ALTER TABLE "token_catalogue" ADD COLUMN "min_payment_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "plan_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "quota_counted_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "link_client" text;--> statement-breakpoint
CREATE INDEX "abuse_counters_window_ends_at_idx" ON "abuse_counters" USING btree ("window_ends_at");--> statement-breakpoint
CREATE INDEX "domains_payout_change_due_idx" ON "domains" USING btree ("payout_change_effective_at") WHERE "domains"."payout_change_effective_at" is not null;--> statement-breakpoint
CREATE INDEX "payment_sessions_link_open_idx" ON "payment_sessions" USING btree ("payment_link_id","expires_at") WHERE "payment_sessions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "refunds_awaiting_funds_idx" ON "refunds" USING btree ("updated_at") WHERE "refunds"."status" = 'awaiting_funds';--> statement-breakpoint
-- custom (hand-written): keys made before scopes existed keep every scope (the column defaults say the same)
UPDATE "api_keys" SET "kind" = 'secret', "scopes" = '{payments:write,payments:read,refunds,withdrawals,payouts}'::text[];
