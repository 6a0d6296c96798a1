import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "../columns";
import { users } from "./users";

/** Why a key was revoked other than by hand (drizzle/0044). */
export const API_KEY_REVOKED_REASONS = ["member-removed", "role-reduced"] as const;
export type ApiKeyRevokedReason = (typeof API_KEY_REVOKED_REASONS)[number];

export const apiKeys = pgTable(
  "api_keys",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * The member who made it (docs/design.md §26): a request made with the key is theirs — their role
     * bounds its scopes, they cannot approve what it asks for, and removing them revokes it. Null
     * only once that user is gone (the key then authenticates nobody). Keys made before 0043
     * belong to the account's owner.
     */
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    /** The first characters of the key, shown in lists so a merchant can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** "secret" | "publishable" (lib/accounts/api-keys/scopes.ts); keys made before kinds existed are secret. */
    kind: text("kind").notNull().default("secret"),
    /**
     * What the key may do (lib/accounts/api-keys/scopes.ts). The default is every scope so that the keys made
     * before scopes existed keep working on every route; new keys always name theirs.
     */
    scopes: text("scopes").array().notNull().default(sql`'{payments:write,payments:read,refunds,withdrawals,payouts}'::text[]`),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
    /**
     * Why the key was revoked when it was not by hand (null): its creator left the account
     * ('member-removed'), or their new role left it no scope ('role-reduced').
     */
    revokedReason: text("revoked_reason").$type<ApiKeyRevokedReason>(),
    /** The last time a change of the creator's role took scopes away, and what the key held before it. */
    scopesReducedAt: timestamptz("scopes_reduced_at"),
    scopesReducedFrom: text("scopes_reduced_from").array(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_keys_hash_unique").on(t.keyHash),
    index("api_keys_user_idx").on(t.userId),
    index("api_keys_created_by_idx").on(t.createdBy),
    check("api_keys_revoked_reason_check", sql`${t.revokedReason} in ('member-removed', 'role-reduced')`),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
