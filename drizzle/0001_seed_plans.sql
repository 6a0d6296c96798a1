-- Plans a merchant can hold. starter is free and self-serve; the others are granted by an operator
-- (npm run admin -- grant-plan <email> <plan>). A null quota is unlimited.
INSERT INTO "plans" ("id", "name", "monthly_session_quota", "price_usd_cents", "self_serve") VALUES
  ('starter', 'Starter', 1000, 0, true),
  ('pro', 'Pro', 100000, 4900, false),
  ('enterprise', 'Enterprise', NULL, 49900, false)
ON CONFLICT ("id") DO NOTHING;
