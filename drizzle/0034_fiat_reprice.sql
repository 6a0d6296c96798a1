-- Late and partial rules in fiat (issue 35 item 5, DESIGN.md §23): per-domain thresholds (null: the
-- gateway's FIAT_UNDERPAY_BPS / FIAT_RATE_TOLERANCE_BPS) and a late deposit of a fiat session re-priced
-- at its block's rate by the expire job (lib/domain/payments/reprice-late.ts), never in the scanner.
ALTER TABLE "domains" ADD COLUMN "fiat_underpay_bps" integer;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "fiat_rate_tolerance_bps" integer;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_fiat_underpay_bps_check" CHECK ("fiat_underpay_bps" BETWEEN 0 AND 1000);--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_fiat_rate_tolerance_bps_check" CHECK ("fiat_rate_tolerance_bps" BETWEEN 0 AND 1000);--> statement-breakpoint
-- 'due': waits to be re-priced; 'counted': counts at reprice_rate; 'late': stays late. Null: never asked.
ALTER TABLE "deposits" ADD COLUMN "reprice" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "reprice_rate" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "reprice_source" text;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "repriced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_reprice_check" CHECK ("reprice" IN ('due', 'counted', 'late'));--> statement-breakpoint
CREATE INDEX "deposits_reprice_due_idx" ON "deposits" USING btree ("id") WHERE "deposits"."reprice" = 'due';
