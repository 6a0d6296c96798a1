-- Accounts with members (issue 36, DESIGN.md §24). An account is the users row its data has always
-- hung off (every `user_id` of the data tables names the account); a user signs in and is a member
-- of one or more accounts with one role. Every user has a home account: its own row, which it owns.
CREATE TABLE "account_members" (
	"account_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"invited_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_members_pk" PRIMARY KEY("account_id","user_id"),
	CONSTRAINT "account_members_role_check" CHECK ("account_members"."role" in ('owner', 'admin', 'finance', 'developer', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_members_user_idx" ON "account_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "account_members_one_owner" ON "account_members" USING btree ("account_id") WHERE "account_members"."role" = 'owner';--> statement-breakpoint
CREATE TABLE "account_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"note" text,
	"invited_by" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_by" integer,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_invitations_role_check" CHECK ("account_invitations"."role" in ('admin', 'finance', 'developer', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "account_invitations" ADD CONSTRAINT "account_invitations_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_invitations" ADD CONSTRAINT "account_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_invitations" ADD CONSTRAINT "account_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_invitations_token_unique" ON "account_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_invitations_account_idx" ON "account_invitations" USING btree ("account_id","created_at");--> statement-breakpoint
-- Existing single-user accounts: their user owns them.
INSERT INTO "account_members" ("account_id", "user_id", "role") SELECT "id", "id", 'owner' FROM "users";--> statement-breakpoint
-- Every user created from now on (sign-up, the operator's CLI, an invitation) owns its home account,
-- whichever code path inserted the row.
CREATE FUNCTION "home_account_owner"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "account_members" ("account_id", "user_id", "role") VALUES (NEW."id", NEW."id", 'owner');
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "users_home_account_owner" AFTER INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION "home_account_owner"();
