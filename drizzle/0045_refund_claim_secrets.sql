-- Claims only for the people meant to have them (issue 46, DESIGN.md §26). A refund that waits for
-- the payer's address is claimed with a secret carried in its claim link (/refund/<id>?k=<secret>):
-- 32 random bytes, stored here only as their SHA-256 (hex); the id alone no longer opens anything.
-- Refunds waiting for an address before this migration have no secret: their old id-only link
-- stops working, and the member who created them issues a new link (dashboard or
-- POST /api/v1/refund/:id/claim-link). created_by is that member: the API key's creator for a
-- refund made with a key, else the member the approval or the audit log names, else the account's
-- owner. approval_on_claim: a refund above the approval threshold made without an address — the
-- payer's claimed address goes to a second member's approval before anything is signed.
ALTER TABLE "refunds" ADD COLUMN "claim_secret_hash" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "approval_on_claim" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_claim_secret_hash_check" CHECK ("refunds"."claim_secret_hash" IS NULL OR "refunds"."claim_secret_hash" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
UPDATE "refunds" r SET "created_by" = CASE
  WHEN r."api_key_id" IS NOT NULL THEN (SELECT k."created_by" FROM "api_keys" k WHERE k."id" = r."api_key_id")
  ELSE coalesce(
    (SELECT a."requested_by_user_id" FROM "approvals" a WHERE a."kind" = 'refund' AND a."subject_id" = r."id"::text),
    (SELECT e."actor_user_id" FROM "audit_events" e
      WHERE e."account_id" = r."user_id" AND e."action" = 'refund.requested' AND e."target_type" = 'refund'
        AND e."target_id" = r."id"::text AND e."actor_user_id" IS NOT NULL
      ORDER BY e."id" LIMIT 1),
    (SELECT m."user_id" FROM "account_members" m WHERE m."account_id" = r."user_id" AND m."role" = 'owner'),
    r."user_id"
  )
END;--> statement-breakpoint
CREATE INDEX "refunds_created_by_idx" ON "refunds" USING btree ("created_by");
