-- Payouts to many at once (DESIGN.md §24, issue 36): one batch per request, one item per recipient.
-- A batch starts `pending` (or `awaiting_approval` until a second member approves, then `pending`;
-- `rejected` is final and nothing reaches the ledger), is `sending` once any chunk is in the ledger,
-- and ends `completed` (every item paid), `partially_failed` or `failed` (none paid).
-- Items go `pending → sending → completed | failed`; a `sending` item points at the ledger row of
-- its chunk's BatchPayer.pay transaction (chain_tx_id) and that row's nonce.
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"api_key_id" integer,
	"requested_by" integer,
	"domain_id" integer NOT NULL,
	"token_id" integer NOT NULL,
	"network" text NOT NULL,
	"from_address" text NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"item_count" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_batches_status_check" CHECK ("status" IN ('awaiting_approval', 'rejected', 'pending', 'sending', 'completed', 'partially_failed', 'failed'))
);--> statement-breakpoint
CREATE TABLE "payout_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"batch_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"to_address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"nonce" bigint,
	"chain_tx_id" bigint,
	"tx_hash" text,
	"failure_reason" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_items_status_check" CHECK ("status" IN ('pending', 'sending', 'completed', 'failed')),
	CONSTRAINT "payout_items_reference_check" CHECK ("reference" IS NULL OR char_length("reference") <= 200),
	CONSTRAINT "payout_items_sending_check" CHECK ("status" = 'pending' OR "status" = 'failed' OR "chain_tx_id" IS NOT NULL)
);--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_token_id_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_chain_tx_id_chain_transactions_id_fk" FOREIGN KEY ("chain_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_batches_key_created_id_idx" ON "payout_batches" USING btree ("api_key_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payout_batches_open_idx" ON "payout_batches" USING btree ("created_at") WHERE "payout_batches"."status" IN ('pending', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "payout_items_batch_position_unique" ON "payout_items" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "payout_items_batch_nonce_idx" ON "payout_items" USING btree ("batch_id","nonce");--> statement-breakpoint
CREATE INDEX "payout_items_open_idx" ON "payout_items" USING btree ("batch_id") WHERE "payout_items"."status" IN ('pending', 'sending');
