CREATE TABLE "session_counts" (
	"user_id" integer NOT NULL,
	"api_key_id" integer,
	"status" text NOT NULL,
	"slot" smallint NOT NULL,
	"sessions" bigint NOT NULL,
	CONSTRAINT "session_counts_owner_status_slot_unique" UNIQUE NULLS NOT DISTINCT("user_id","api_key_id","status","slot")
);
--> statement-breakpoint
CREATE TABLE "withdrawal_counts" (
	"user_id" integer NOT NULL,
	"api_key_id" integer,
	"status" text NOT NULL,
	"slot" smallint NOT NULL,
	"withdrawals" bigint NOT NULL,
	CONSTRAINT "withdrawal_counts_owner_status_slot_unique" UNIQUE NULLS NOT DISTINCT("user_id","api_key_id","status","slot")
);
--> statement-breakpoint
CREATE TABLE "payment_day_totals" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"token_id" integer NOT NULL,
	"status" text NOT NULL,
	"fiat_currency" text,
	"sessions" bigint NOT NULL,
	"received" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "payment_day_totals_unique" UNIQUE NULLS NOT DISTINCT("user_id","day","token_id","status","fiat_currency")
);
--> statement-breakpoint
ALTER TABLE "session_counts" ADD CONSTRAINT "session_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_counts" ADD CONSTRAINT "session_counts_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_counts" ADD CONSTRAINT "withdrawal_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_counts" ADD CONSTRAINT "withdrawal_counts_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_day_totals" ADD CONSTRAINT "payment_day_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_day_totals" ADD CONSTRAINT "payment_day_totals_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_counts_key_status_idx" ON "session_counts" USING btree ("api_key_id","status");--> statement-breakpoint
CREATE INDEX "withdrawal_counts_key_status_idx" ON "withdrawal_counts" USING btree ("api_key_id","status");--> statement-breakpoint
DROP INDEX "payment_sessions_key_created_idx";--> statement-breakpoint
DROP INDEX "payment_sessions_key_status_created_idx";--> statement-breakpoint
DROP INDEX "withdrawals_key_created_idx";--> statement-breakpoint
DROP INDEX "withdrawals_key_status_created_idx";--> statement-breakpoint
CREATE INDEX "payment_sessions_key_created_id_idx" ON "payment_sessions" USING btree ("api_key_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_sessions_key_status_created_id_idx" ON "payment_sessions" USING btree ("api_key_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "payment_sessions_key_pending_expiry_idx" ON "payment_sessions" USING btree ("api_key_id","expires_at") WHERE "payment_sessions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "withdrawals_key_created_id_idx" ON "withdrawals" USING btree ("api_key_id","created_at","id");--> statement-breakpoint
CREATE INDEX "withdrawals_key_status_created_id_idx" ON "withdrawals" USING btree ("api_key_id","status","created_at","id");--> statement-breakpoint
-- custom (hand-written): the counters and day totals start from the rows already there, in slot 0;
-- from here on the writing transactions keep them (lib/domain/payments/session-tallies.ts,
-- lib/domain/withdrawals/withdrawal-tallies.ts).
INSERT INTO "session_counts" ("user_id", "api_key_id", "status", "slot", "sessions")
  SELECT "user_id", "api_key_id", "status", 0, count(*) FROM "payment_sessions" GROUP BY "user_id", "api_key_id", "status";--> statement-breakpoint
INSERT INTO "withdrawal_counts" ("user_id", "api_key_id", "status", "slot", "withdrawals")
  SELECT "user_id", "api_key_id", "status", 0, count(*) FROM "withdrawals" GROUP BY "user_id", "api_key_id", "status";--> statement-breakpoint
INSERT INTO "payment_day_totals" ("user_id", "day", "token_id", "status", "fiat_currency", "sessions", "received")
  SELECT "user_id",
    (coalesce(CASE "status" WHEN 'completed' THEN "completed_at" WHEN 'expired' THEN "expired_at" ELSE "cancelled_at" END, "updated_at") AT TIME ZONE 'UTC')::date,
    "token_id", "status", NULL, count(*), sum("received_amount")
  FROM "payment_sessions" WHERE "status" IN ('completed', 'expired', 'cancelled')
  GROUP BY 1, 2, 3, 4;
