DROP INDEX "refunds_client_request_unique";--> statement-breakpoint
DROP INDEX "withdrawals_client_request_unique";--> statement-breakpoint
ALTER TABLE "idempotency_records" ALTER COLUMN "api_key_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_user_key_unique" ON "idempotency_records" USING btree ("user_id","scope","key");--> statement-breakpoint
-- custom (hand-written): a dashboard form sent in the last day keeps its request id as the user's
-- idempotency key (body null, as lib/domain/idempotency hashes it), so a resubmit across the upgrade
-- replays instead of sending again. Before the columns go.
INSERT INTO "idempotency_records" ("user_id", "scope", "key", "request_hash", "response_status", "response_body", "expires_at")
  SELECT "user_id", 'withdrawal.send', "client_request_id", encode(sha256(convert_to('null', 'UTF8')), 'hex'), 201,
    jsonb_build_object('withdrawalId', "id"), now() + interval '24 hours'
  FROM "withdrawals" WHERE "client_request_id" IS NOT NULL AND "created_at" > now() - interval '24 hours'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "idempotency_records" ("user_id", "scope", "key", "request_hash", "response_status", "response_body", "expires_at")
  SELECT "user_id", 'payment.refund', "client_request_id", encode(sha256(convert_to('null', 'UTF8')), 'hex'), 201,
    jsonb_build_object('refundId', "id"), now() + interval '24 hours'
  FROM "refunds" WHERE "client_request_id" IS NOT NULL AND "created_at" > now() - interval '24 hours'
  ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "refunds" DROP COLUMN "client_request_id";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "client_request_id";--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD CONSTRAINT "idempotency_one_owner" CHECK (("idempotency_records"."api_key_id" is null) <> ("idempotency_records"."user_id" is null));