-- The dashboard's list of an account's payout batches (keyset on user, created_at, id; DESIGN.md §25).
-- Its own migration, not an edit of 0039: a database that already ran 0039 gets it too. IF NOT
-- EXISTS: a database built from a checkout where 0039 briefly carried it already has it.
CREATE INDEX IF NOT EXISTS "payout_batches_user_created_id_idx" ON "payout_batches" USING btree ("user_id","created_at","id");
