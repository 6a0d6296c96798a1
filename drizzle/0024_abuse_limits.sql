CREATE TABLE "abuse_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "token_catalogue" ADD COLUMN "min_payment_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "plan_after" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "quota_counted_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "link_client" text;--> statement-breakpoint
CREATE INDEX "abuse_counters_window_ends_at_idx" ON "abuse_counters" USING btree ("window_ends_at");--> statement-breakpoint
CREATE INDEX "payment_sessions_link_open_idx" ON "payment_sessions" USING btree ("payment_link_id","expires_at") WHERE "payment_sessions"."status" = 'pending';