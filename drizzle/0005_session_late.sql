ALTER TABLE "payment_sessions" ADD COLUMN "late" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_sessions" ADD COLUMN "late_amount" numeric(78, 0) DEFAULT 0 NOT NULL;