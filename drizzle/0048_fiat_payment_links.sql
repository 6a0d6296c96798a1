-- Payment links priced in a currency (issue 48): a fixed price in ISO 4217 minor units (25.00 USD =
-- 2500), paid in the link's token at the feeds' rate when the payer presses Pay (docs/design.md §23).
-- Null on every existing link: priced in its token as before.
ALTER TABLE "payment_links" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "payment_links" ADD COLUMN "fiat_amount" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_fiat_check" CHECK (("currency" IS NULL) = ("fiat_amount" IS NULL) AND ("currency" IS NULL OR ("amount" IS NULL AND "min_amount" IS NULL)));
