CREATE TABLE "gas_charges" (
	"chain_tx_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"units" integer DEFAULT 1 NOT NULL,
	"total_units" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "gas_charges_chain_tx_id_user_id_pk" PRIMARY KEY("chain_tx_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "daily_gas_budget" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "daily_withdrawals" integer;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "max_domains" integer;--> statement-breakpoint
ALTER TABLE "token_catalogue" ADD COLUMN "min_withdrawal_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "chain_transactions" ADD COLUMN "fee_paid" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "gas_charges" ADD CONSTRAINT "gas_charges_chain_tx_id_chain_transactions_id_fk" FOREIGN KEY ("chain_tx_id") REFERENCES "public"."chain_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gas_charges" ADD CONSTRAINT "gas_charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gas_charges_user_idx" ON "gas_charges" USING btree ("user_id");--> statement-breakpoint
-- Abuse economics (DESIGN.md §18): what a package lets a merchant cost the gas tank per UTC day.
-- Starter (free, self-serve): 0.1 BNB of gas, 100 withdrawal requests a day, 20 domains.
UPDATE "plans" SET "daily_gas_budget" = 100000000000000000, "daily_withdrawals" = 100, "max_domains" = 20 WHERE "id" = 'starter';--> statement-breakpoint
UPDATE "plans" SET "daily_gas_budget" = 2000000000000000000, "daily_withdrawals" = 5000, "max_domains" = 100 WHERE "id" = 'pro';
