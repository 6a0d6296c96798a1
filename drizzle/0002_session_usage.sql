CREATE TABLE "session_usage" (
	"user_id" integer NOT NULL,
	"period" text NOT NULL,
	"sessions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "session_usage_user_id_period_pk" PRIMARY KEY("user_id","period")
);
--> statement-breakpoint
ALTER TABLE "session_usage" ADD CONSTRAINT "session_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;