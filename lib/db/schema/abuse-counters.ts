import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Security counters every instance shares (docs/design.md §21): sign-in and TOTP failures, link Pay,
 * refund claims… one row per (limit, client or account) key, a fixed window each
 * (lib/accounts/abuse/counters.ts). Rows past their window are pruned.
 */
export const abuseCounters = pgTable(
  "abuse_counters",
  {
    /** `<limit>:<client key or account>`, e.g. `link-pay:203.0.113.7`. */
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    windowEndsAt: timestamp("window_ends_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("abuse_counters_window_ends_at_idx").on(t.windowEndsAt)],
);

export type AbuseCounter = typeof abuseCounters.$inferSelect;
