-- Reports in the merchant's currency (issue 35, DESIGN.md §23): the account's currency (ISO 4217, one of
-- lib/domain/pricing/fiat.ts FIAT_MINOR_UNITS), and each day total's value at the sessions' locked rates.
ALTER TABLE "users" ADD COLUMN "account_currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
-- A fiat-priced day total's value in the minor units of its fiat_currency: the sum over its sessions of
-- ⌊fiat_amount × received_amount ÷ amount⌋ (what was received, at the session's locked rate). 0 for
-- token-priced rows (fiat_currency null): those are valued when read (a USD-pegged stablecoin 1:1) or not at all.
ALTER TABLE "payment_day_totals" ADD COLUMN "value" numeric DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "payment_day_totals" AS d SET "value" = s."value"
  FROM (
    SELECT "user_id",
      (coalesce(CASE "status" WHEN 'completed' THEN "completed_at" WHEN 'expired' THEN "expired_at" ELSE "cancelled_at" END, "updated_at") AT TIME ZONE 'UTC')::date AS "day",
      "token_id", "status", "currency", sum(div("fiat_amount" * "received_amount", "amount")) AS "value"
    FROM "payment_sessions"
    WHERE "status" IN ('completed', 'expired', 'cancelled') AND "currency" IS NOT NULL AND "amount" > 0
    GROUP BY 1, 2, 3, 4, 5
  ) AS s
  WHERE d."user_id" = s."user_id" AND d."day" = s."day" AND d."token_id" = s."token_id" AND d."status" = s."status"
    AND d."fiat_currency" = s."currency";
