import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "../columns";
import { users } from "./users";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key, shown in lists so a merchant can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash), index("api_keys_user_idx").on(t.userId)],
);

export type ApiKey = typeof apiKeys.$inferSelect;
