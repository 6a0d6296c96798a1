import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "../columns";
import { apiKeys } from "./api-keys";

/**
 * `Idempotency-Key` records: the first request inserts a row (unique per key + scope), does the
 * work, then stores its response; a repeat with the same body gets that response back.
 */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    apiKeyId: integer("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [uniqueIndex("idempotency_key_unique").on(t.apiKeyId, t.scope, t.key), index("idempotency_expiry_idx").on(t.expiresAt)],
);
