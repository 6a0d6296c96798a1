import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "../columns";
import { apiKeys } from "./api-keys";
import { users } from "./users";

/**
 * Idempotent requests (lib/domain/idempotency): the first request inserts a row (unique per owner +
 * scope + key), does the work, then stores its response; a repeat with the same body gets that
 * response back. The owner is an API key (its `Idempotency-Key` header) or a dashboard user (the
 * form's request id): exactly one of the two.
 */
export const idempotencyRecords = pgTable(
  "idempotency_records",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("idempotency_key_unique").on(t.apiKeyId, t.scope, t.key),
    uniqueIndex("idempotency_user_key_unique").on(t.userId, t.scope, t.key),
    index("idempotency_expiry_idx").on(t.expiresAt),
    check("idempotency_one_owner", sql`(${t.apiKeyId} is null) <> (${t.userId} is null)`),
  ],
);
