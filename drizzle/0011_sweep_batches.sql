CREATE TABLE "sweep_batches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sweep_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"network" text NOT NULL,
	"kind" text DEFAULT 'sweep' NOT NULL,
	"token_contract" text,
	"size" integer DEFAULT 0 NOT NULL,
	"authorizations" integer DEFAULT 0 NOT NULL,
	"from_address" text NOT NULL,
	"nonce" bigint NOT NULL,
	"gas_limit" numeric(78, 0) NOT NULL,
	"gas_price" numeric(78, 0) NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"gas_used" numeric(78, 0),
	"last_error" text,
	"mined_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "forwards_due_idx";--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "batch_id" bigint;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "batch_index" integer;--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "classic_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "sweep_batches_tx_hash_idx" ON "sweep_batches" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "sweep_batches_open_idx" ON "sweep_batches" USING btree ("network") WHERE "sweep_batches"."status" = 'sent';--> statement-breakpoint
CREATE INDEX "forwards_batch_idx" ON "forwards" USING btree ("batch_id") WHERE "forwards"."batch_id" is not null;--> statement-breakpoint
CREATE INDEX "forwards_due_idx" ON "forwards" USING btree ("next_attempt_at") WHERE "forwards"."status" in ('pending', 'gas_sent', 'sweep_sent', 'batched');