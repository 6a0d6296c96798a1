import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "../columns";
import { users } from "./users";

/** Plans a merchant can hold; seeded by migration. */
export const plans = pgTable("plans", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Payment sessions allowed per calendar month (UTC); null = unlimited. */
  monthlySessionQuota: integer("monthly_session_quota"),
  priceUsdCents: integer("price_usd_cents").notNull().default(0),
  /** A merchant may activate it without an operator (the free plan). */
  selfServe: boolean("self_serve").notNull().default(false),
  /**
   * BNB (wei) the gas tank may spend on a merchant's behalf per UTC day (gas_charges); beyond it
   * withdrawals answer RATE_LIMITED while incoming payments are still swept. Null = unlimited.
   */
  dailyGasBudget: amount("daily_gas_budget"),
  /** Withdrawal requests per UTC day; null = unlimited. */
  dailyWithdrawals: integer("daily_withdrawals"),
  /** Domains a merchant may hold; null = unlimited. */
  maxDomains: integer("max_domains"),
  createdAt: createdAt(),
});

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: text("plan_id")
      .notNull()
      .references(() => plans.id),
    status: text("status", { enum: ["active", "cancelled"] })
      .notNull()
      .default("active"),
    startsAt: timestamptz("starts_at").notNull().defaultNow(),
    /** Null = open-ended. */
    endsAt: timestamptz("ends_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One active subscription per user: granting a plan replaces the active one.
    uniqueIndex("subscriptions_one_active_per_user").on(t.userId).where(sql`${t.status} = 'active'`),
    index("subscriptions_user_idx").on(t.userId, t.createdAt),
  ],
);

export type Plan = typeof plans.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;

/**
 * Sessions created per user and calendar month (UTC, "YYYY-MM"). Incremented by a conditional
 * upsert inside the creating transaction, which is both the quota check and its lock.
 */
export const sessionUsage = pgTable(
  "session_usage",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    period: text("period").notNull(),
    sessions: integer("sessions").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.period] })],
);
