/**
 * The balance poller's state (lib/engine/scanner/native-balance-poll.ts): BNB a contract sends with
 * an internal call is no transaction's value, so the poller reads the balances of the deposit
 * addresses that wait for BNB and records what the ledger cannot explain. What it keeps here is
 * all it needs to never record an increase twice, across restarts and instances.
 */
import { sql } from "drizzle-orm";
import { bigint, index, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";

/**
 * One deposit address watched for BNB: registered when its session is first seen open, updated
 * when something is recorded for it and when the read at its deadline is done, deleted once the
 * late window after its deadline is over (or its session completed).
 */
export const nativeBalanceWatch = pgTable(
  "native_balance_watch",
  {
    network: text("network").notNull(),
    /** Checksummed, as payment_sessions.deposit_address. */
    address: text("address").notNull(),
    sessionId: uuid("session_id").notNull(),
    /** Transfers in blocks whose time is after this count late: the session's expiry, or its cancel. */
    deadline: timestamptz("deadline").notNull(),
    /** A cancelled session: transfers in blocks after this one are late (its cancel's block). */
    deadlineBlock: bigint("deadline_block", { mode: "bigint" }),
    /**
     * The highest block at which an increase was recorded for this address (-1: none). Nothing is
     * ever recorded at or below it again: a later reading already accounted for everything before.
     */
    recordedBlock: bigint("recorded_block", { mode: "bigint" }).notNull().default(-1n),
    /** The block of the read at the deadline (null: not done yet); from then on increases are late. */
    finalBlock: bigint("final_block", { mode: "bigint" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.network, t.address] }),
    // The addresses still waiting for their deadline's read (read every poll), apart from the late ones.
    index("native_balance_watch_open_idx").on(t.network, t.address).where(sql`${t.finalBlock} is null`),
    index("native_balance_watch_deadline_idx").on(t.network, t.deadline),
  ],
);

export type NativeBalanceWatchRow = typeof nativeBalanceWatch.$inferSelect;

/** Per network: the block of the last balance poll (the poll's cadence is counted in blocks from it). */
export const nativeBalancePolls = pgTable("native_balance_polls", {
  network: text("network").primaryKey(),
  polledBlock: bigint("polled_block", { mode: "bigint" }).notNull(),
  polledAt: timestamptz("polled_at").notNull().defaultNow(),
});
