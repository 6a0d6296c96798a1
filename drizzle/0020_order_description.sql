ALTER TABLE "payment_sessions" ALTER COLUMN "api_key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "order_id" text;--> statement-breakpoint
CREATE INDEX "payment_sessions_key_order_idx" ON "payment_sessions" USING btree ("api_key_id","order_id");