-- The dashboard expires its merchant's due sessions before listing them (lib/web/dashboard/user-payments.ts):
-- an index of the merchant's pending sessions by deadline keeps that read to those few rows, where the
-- planner could otherwise walk the primary key through the whole history to honour `order by id`.
CREATE INDEX "payment_sessions_user_pending_expiry_idx" ON "payment_sessions" USING btree ("user_id","expires_at") WHERE "payment_sessions"."status" = 'pending';
