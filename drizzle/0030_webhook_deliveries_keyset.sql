-- The dashboard pages an endpoint's deliveries by keyset on (created_at, id): an index in that order
-- serves every page, the deepest included. It supersedes (endpoint_id, created_at).
CREATE INDEX IF NOT EXISTS "webhook_deliveries_endpoint_created_id_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");
--> statement-breakpoint
DROP INDEX IF EXISTS "webhook_deliveries_endpoint_created_idx";
