-- The audit log (issue 36, docs/design.md §24): who did what to an account, when and from where.
-- Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE, so not even the service's own code
-- can rewrite the history. account_id references users ON DELETE RESTRICT: an account with a
-- history cannot vanish with it (a cascade would be refused by the trigger anyway, with a less
-- clear message). Actors carry no foreign key: actor_label copies the email or key name, so a row
-- stays readable after the member leaves or the key is gone.
CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_user_id" integer,
	"actor_api_key_id" integer,
	"actor_label" text NOT NULL,
	"address" text,
	"action" text NOT NULL,
	"target_type" text,
	"target_id" text,
	"before" jsonb,
	"after" jsonb,
	CONSTRAINT "audit_events_actor_kind_check" CHECK ("audit_events"."actor_kind" in ('user', 'api_key', 'system'))
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_account_at_idx" ON "audit_events" USING btree ("account_id", "at" DESC NULLS LAST, "id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_account_action_at_idx" ON "audit_events" USING btree ("account_id", "action", "at" DESC NULLS LAST, "id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_account_actor_user_at_idx" ON "audit_events" USING btree ("account_id", "actor_user_id", "at" DESC NULLS LAST, "id" DESC NULLS LAST) WHERE "audit_events"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "audit_events_account_actor_key_at_idx" ON "audit_events" USING btree ("account_id", "actor_api_key_id", "at" DESC NULLS LAST, "id" DESC NULLS LAST) WHERE "audit_events"."actor_api_key_id" is not null;--> statement-breakpoint
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_events_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_events" FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events" FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
