CREATE TABLE "network_batching" (
	"network" text PRIMARY KEY NOT NULL,
	"chain_key" text,
	"eip7702" text,
	"refused_batches" integer DEFAULT 0 NOT NULL,
	"failed_checks" integer DEFAULT 0 NOT NULL,
	"last_check_error" text,
	"tank_low_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
