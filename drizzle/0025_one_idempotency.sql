DROP INDEX "refunds_client_request_unique";--> statement-breakpoint
DROP INDEX "withdrawals_client_request_unique";--> statement-breakpoint
ALTER TABLE "idempotency_records" ALTER COLUMN "api_key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_user_key_unique" ON "idempotency_records" USING btree ("user_id","scope","key");--> statement-breakpoint
ALTER TABLE "refunds" DROP COLUMN "client_request_id";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "client_request_id";--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_one_owner" CHECK (("idempotency_records"."api_key_id" is null) <> ("idempotency_records"."user_id" is null));