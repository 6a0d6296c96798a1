-- BNB in, whoever sends it (issue 46): BNB a contract sends with an internal call (a Safe, a 4337
-- wallet, an exchange's hot wallet) is no transaction's value, so the block reader never sees it.
-- The balance poller (lib/engine/scanner/native-balance-poll.ts) reads the BNB balance of the
-- deposit addresses of open sessions that offer BNB, pinned to a confirmed block, and records the
-- part the ledger cannot explain. It keeps per address the highest block it recorded at and
-- whether the read at the session's deadline is done, and per network the block of its last poll;
-- what the service itself sent to an address (gas top-ups) is found through a new index.
CREATE TABLE "native_balance_watch" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	"session_id" uuid NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"deadline_block" bigint,
	"recorded_block" bigint DEFAULT -1 NOT NULL,
	"final_block" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "native_balance_watch_network_address_pk" PRIMARY KEY("network","address")
);--> statement-breakpoint
CREATE INDEX "native_balance_watch_open_idx" ON "native_balance_watch" USING btree ("network","address") WHERE "native_balance_watch"."final_block" is null;--> statement-breakpoint
CREATE INDEX "native_balance_watch_deadline_idx" ON "native_balance_watch" USING btree ("network","deadline");--> statement-breakpoint
CREATE TABLE "native_balance_polls" (
	"network" text PRIMARY KEY NOT NULL,
	"polled_block" bigint NOT NULL,
	"polled_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "chain_transactions_to_idx" ON "chain_transactions" USING btree ("network","to_address");
