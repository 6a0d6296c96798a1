-- Keys belong to people (issue 46, DESIGN.md §26): every API key records the member who made it.
-- A request made with the key is that member's: their role bounds the key's scopes, they cannot
-- approve what the key asks for, and removing them from the account revokes it. Keys made before
-- this migration belong to the account's owner (the account's own user when no owner row exists).
ALTER TABLE "api_keys" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
UPDATE "api_keys" k SET "created_by" = coalesce(
  (SELECT m."user_id" FROM "account_members" m WHERE m."account_id" = k."user_id" AND m."role" = 'owner'),
  k."user_id"
);--> statement-breakpoint
CREATE INDEX "api_keys_created_by_idx" ON "api_keys" USING btree ("created_by");
