ALTER TABLE "api_keys" ADD COLUMN "kind" text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT '{payments:write,payments:read,refunds,withdrawals,payouts}'::text[] NOT NULL;--> statement-breakpoint
-- custom (hand-written)
-- Every key made before scopes existed is a secret key with every scope (it could do everything before).
UPDATE "api_keys" SET "kind" = 'secret', "scopes" = '{payments:write,payments:read,refunds,withdrawals,payouts}'::text[];
