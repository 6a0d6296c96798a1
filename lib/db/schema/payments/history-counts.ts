import { sql } from "drizzle-orm";
import { bigint, date, index, integer, pgTable, smallint, text, unique } from "drizzle-orm/pg-core";
import { amountSum } from "../columns";
import { apiKeys } from "../merchants/api-keys";
import { tokens } from "../merchants/tokens";
import { users } from "../merchants/users";
import { SESSION_STATUSES } from "./payment-sessions";
import { WITHDRAWAL_STATUSES } from "./withdrawals";

/**
 * How many sessions a merchant has in each status, per API key (null: created on the dashboard),
 * kept in the transactions that insert sessions or change their status (docs/design.md §25): the
 * history's `meta.total` and the overview read these, never `count(*)` over payment_sessions.
 *
 * A count is the sum of its `slot` rows. Each writing transaction adds its deltas to one slot
 * chosen at random (0..COUNT_SLOTS-1), so concurrent creates of one key wait on each other only
 * one time in COUNT_SLOTS instead of queueing on a single row until commit. A slot may go negative
 * (a session counted pending in slot 2 may be expired through slot 5); only the sum means anything.
 */
export const sessionCounts = pgTable(
  "session_counts",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    status: text("status", { enum: SESSION_STATUSES }).notNull(),
    slot: smallint("slot").notNull(),
    sessions: bigint("sessions", { mode: "number" }).notNull(),
  },
  (t) => [
    unique("session_counts_owner_status_slot_unique").on(t.userId, t.apiKeyId, t.status, t.slot).nullsNotDistinct(),
    index("session_counts_key_status_idx").on(t.apiKeyId, t.status),
  ],
);

/** The same for withdrawals: per API key (null: sent from the dashboard) and status, in slots. */
export const withdrawalCounts = pgTable(
  "withdrawal_counts",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    status: text("status", { enum: WITHDRAWAL_STATUSES }).notNull(),
    slot: smallint("slot").notNull(),
    withdrawals: bigint("withdrawals", { mode: "number" }).notNull(),
  },
  (t) => [
    unique("withdrawal_counts_owner_status_slot_unique").on(t.userId, t.apiKeyId, t.status, t.slot).nullsNotDistinct(),
    index("withdrawal_counts_key_status_idx").on(t.apiKeyId, t.status),
  ],
);

/** Sessions in slots of this many rows per (owner, status): see sessionCounts. */
export const COUNT_SLOTS = 8;

/**
 * Daily totals of a merchant's sessions that reached a terminal status (completed, expired,
 * cancelled), per UTC day of that status (completed_at, expired_at, cancelled_at), token and fiat
 * currency (null: token-priced; docs/design.md §23): how many, and what they received. Kept in the
 * transaction that changes the session (lib/domain/payments/session-tallies.ts); the overview and
 * its charts read these, never payment_sessions grouped.
 */
export const paymentDayTotals = pgTable(
  "payment_day_totals",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id),
    status: text("status", { enum: SESSION_STATUSES }).notNull(),
    fiatCurrency: text("fiat_currency"),
    sessions: bigint("sessions", { mode: "number" }).notNull(),
    /** Sum of the sessions' received_amount, base units of the token. */
    received: amountSum("received").notNull().default(sql`0`),
    /**
     * A fiat row's value, in minor units of fiat_currency: the sum of ⌊fiat_amount × received_amount ÷
     * amount⌋ of its sessions (received at each session's locked rate). 0 for token-priced rows.
     */
    value: amountSum("value").notNull().default(sql`0`),
  },
  (t) => [unique("payment_day_totals_unique").on(t.userId, t.day, t.tokenId, t.status, t.fiatCurrency).nullsNotDistinct()],
);

export type PaymentDayTotal = typeof paymentDayTotals.$inferSelect;
