ALTER TABLE "domains" ADD COLUMN "pending_payout_address" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "payout_change_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "payout_change_effective_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "payout_change_requested_by" integer;--> statement-breakpoint
CREATE INDEX "domains_payout_change_due_idx" ON "domains" USING btree ("payout_change_effective_at") WHERE "domains"."payout_change_effective_at" is not null;