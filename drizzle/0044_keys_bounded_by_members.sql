-- Keys belong to people, part two (issue 46, DESIGN.md §26). An account may require two-factor of
-- every member who can move money, approve it, hold the keys or choose where money goes
-- (users.members_need_two_factor, set on the account's own row, off by default). An API key that
-- loses scopes or is revoked because of its creator's membership says so: revoked_reason is
-- 'member-removed' (the creator left the account) or 'role-reduced' (their new role left the key no
-- scope); scopes_reduced_at/scopes_reduced_from record the last time a role change took scopes away
-- and what the key held before. Keys revoked by hand keep a null reason.
ALTER TABLE "users" ADD COLUMN "members_need_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes_reduced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes_reduced_from" text[];--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_revoked_reason_check" CHECK ("api_keys"."revoked_reason" in ('member-removed', 'role-reduced'));
