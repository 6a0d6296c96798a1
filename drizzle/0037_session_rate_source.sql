-- A fiat session's rate says where it came from and when (issue 35: status, history and webhooks carry
-- the rate, its source and its time): its quote's source and time, or the block a transfer after the
-- window was re-priced at.
ALTER TABLE "payment_sessions" ADD COLUMN "rate_source" text;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
UPDATE "payment_sessions" AS s SET "rate_source" = q."source", "rated_at" = q."quoted_at"
FROM "session_quotes" AS q
WHERE q."session_id" = s."id" AND q."token_id" = s."token_id" AND s."rate" IS NOT NULL AND s."rate" = q."rate";--> statement-breakpoint
UPDATE "payment_sessions" AS s SET "rate_source" = d."reprice_source", "rated_at" = d."block_timestamp"
FROM "deposits" AS d
WHERE d."session_id" = s."id" AND d."reprice" = 'counted' AND s."rate" = d."reprice_rate" AND s."rate_source" IS NULL;
