ALTER TABLE "forwards" ADD COLUMN "gas_price" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "sweep_gas_limit" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "forwards" ADD COLUMN "locked_until" timestamp with time zone;