import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";
import { users } from "./users";

/**
 * A whitelisted shop origin. Its id d is also the HD index of its withdrawal wallet
 * (m/44'/60'/2'/0/d, DESIGN.md §7); identity ids are never reused, and a deleted domain is only
 * marked deleted so its wallet (which may still hold funds) stays traceable.
 */
export const domains = pgTable(
  "domains",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Normalised origin: scheme://host[:port], lower case, no default port, no path. */
    origin: text("origin").notNull(),
    payoutAddress: text("payout_address"),
    webhookUrl: text("webhook_url"),
    /** Checksummed address of the domain's withdrawal wallet, stored for lookups and display. */
    withdrawalAddress: text("withdrawal_address"),
    deletedAt: timestamptz("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("domains_user_origin_unique").on(t.userId, t.origin).where(sql`${t.deletedAt} is null`),
    index("domains_user_idx").on(t.userId, t.id),
    // "Is this address one of our withdrawal wallets?" (no forwarding chains)
    index("domains_withdrawal_address_idx").on(t.withdrawalAddress),
  ],
);

export type Domain = typeof domains.$inferSelect;
