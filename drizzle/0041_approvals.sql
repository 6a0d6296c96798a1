-- Approvals for money out (issue 36, DESIGN.md §24): per account and token, a threshold per request
-- and per day; above it a withdrawal, refund or payout waits (`awaiting_approval`) until a second
-- member approves it with a two-factor code. A waiting or rejected withdrawal has no transaction yet:
-- its nonce, hash, ledger row and gas are filled in when it is approved and recorded.
CREATE TABLE "approval_policies" (
	"account_id" integer NOT NULL,
	"token_id" integer NOT NULL,
	"per_request_limit" numeric(78, 0),
	"per_day_limit" numeric(78, 0),
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_policies_pk" PRIMARY KEY("account_id","token_id")
);
--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_policies" ADD CONSTRAINT "approval_policies_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"domain_id" integer,
	"token_id" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"requested_by_user_id" integer,
	"requested_by_api_key_id" integer,
	"status" text DEFAULT 'awaiting_approval' NOT NULL,
	"decided_by_user_id" integer,
	"decided_at" timestamp with time zone,
	"reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approvals_kind_check" CHECK ("approvals"."kind" in ('withdrawal', 'refund', 'payout')),
	CONSTRAINT "approvals_status_check" CHECK ("approvals"."status" in ('awaiting_approval', 'approved', 'rejected', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_requested_by_api_key_id_api_keys_id_fk" FOREIGN KEY ("requested_by_api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_inbox_idx" ON "approvals" USING btree ("account_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_subject_unique" ON "approvals" USING btree ("kind","subject_id");--> statement-breakpoint
CREATE INDEX "approvals_awaiting_expiry_idx" ON "approvals" USING btree ("expires_at") WHERE "approvals"."status" = 'awaiting_approval';--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "nonce" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "tx_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "chain_tx_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "gas_limit" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "gas_price" DROP NOT NULL;
