ALTER TABLE "withdrawals" ALTER COLUMN "api_key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "client_request_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_client_request_unique" ON "withdrawals" USING btree ("user_id","client_request_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at");