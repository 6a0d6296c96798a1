-- Refunds of fiat-priced payments record their basis (DESIGN.md §23, issue 35): "tokens" (the tokens
-- paid) or "fiat" (a fiat amount at the rate read when the refund was created: currency, fiat amount
-- in minor units, the rate, its source and time). Refunds of token-priced payments keep basis NULL.
ALTER TABLE "refunds" ADD COLUMN "basis" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "fiat_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "rate" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "rate_source" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
-- Refunds of fiat-priced payments made before this migration gave back tokens.
UPDATE "refunds" SET "basis" = 'tokens' FROM "payment_sessions" WHERE "payment_sessions"."id" = "refunds"."session_id" AND "payment_sessions"."currency" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_basis_check" CHECK ("basis" IS NULL OR "basis" IN ('tokens', 'fiat'));--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_fiat_basis_check" CHECK (CASE WHEN "basis" = 'fiat' THEN "currency" IS NOT NULL AND "fiat_amount" IS NOT NULL AND "rate" IS NOT NULL AND "rate_source" IS NOT NULL AND "rated_at" IS NOT NULL ELSE "currency" IS NULL AND "fiat_amount" IS NULL AND "rate" IS NULL AND "rate_source" IS NULL AND "rated_at" IS NULL END);
