import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, createdAt, updatedAt } from "../columns";
import { domains } from "../merchants/domains";
import { tokens } from "../merchants/tokens";
import { users } from "../merchants/users";

/**
 * A payment page without a shop backend: `/l/<slug>` shows the title and amount, and each "Pay"
 * creates a fresh session (payment_sessions.payment_link_id) for the hosted checkout.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Public and unguessable (random, url-safe): links are shared, but not enumerable. */
    slug: text("slug").notNull(),
    /** Whose whitelist and wallet the sessions use. */
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id),
    title: text("title").notNull(),
    description: text("description"),
    /** A fixed amount; null: the payer chooses, at least `minAmount` (or the price is in `currency`). */
    amount: amount("amount"),
    minAmount: amount("min_amount"),
    /**
     * A fixed price in a currency (docs/design.md §23): ISO 4217 and its minor units (25.00 USD =
     * 2500); each Pay quotes the link's token at the feeds' rate then. Null: priced in the token.
     */
    currency: text("currency"),
    fiatAmount: amount("fiat_amount"),
    redirectUrl: text("redirect_url"),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payment_links_slug_unique").on(t.slug),
    index("payment_links_user_idx").on(t.userId, t.createdAt),
    check(
      "payment_links_fiat_check",
      sql`(${t.currency} IS NULL) = (${t.fiatAmount} IS NULL) AND (${t.currency} IS NULL OR (${t.amount} IS NULL AND ${t.minAmount} IS NULL))`,
    ),
  ],
);

export type PaymentLink = typeof paymentLinks.$inferSelect;
