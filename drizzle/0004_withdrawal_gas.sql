CREATE TABLE "gas_top_ups" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "gas_top_ups_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"network" text NOT NULL,
	"to_address" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"nonce" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"raw_tx" text NOT NULL,
	"mined_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "gas_limit" numeric(78, 0) NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "gas_price" numeric(78, 0) NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "filler_tx_hash" text;--> statement-breakpoint
CREATE INDEX "gas_top_ups_unmined_idx" ON "gas_top_ups" USING btree ("created_at") WHERE "gas_top_ups"."mined_at" is null;