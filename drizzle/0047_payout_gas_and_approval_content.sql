-- Issue 46: payout batches hold their estimated gas against the merchant's daily gas budget while
-- their chunks are not signed yet (gas_reserved, wei); an approval records the hash of what the money
-- does when it is asked for (content_hash) and the hash its approver's code confirmed
-- (approved_content_hash), so a subject changed in between cannot be approved with the old code.
ALTER TABLE "payout_batches" ADD COLUMN "gas_reserved" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "payout_batches_gas_reserved_idx" ON "payout_batches" USING btree ("user_id") WHERE "payout_batches"."gas_reserved" > 0;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "approved_content_hash" text;
