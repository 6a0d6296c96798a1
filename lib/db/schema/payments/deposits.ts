import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz } from "../columns";
import { paymentSessions } from "./payment-sessions";

/** One confirmed ERC-20 Transfer into a deposit address, keyed by the chain's own ids. */
export const deposits = pgTable(
  "deposits",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    network: text("network").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    blockTimestamp: timestamptz("block_timestamp").notNull(),
    tokenContract: text("token_contract").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    amount: amount("amount").notNull(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => paymentSessions.id, { onDelete: "cascade" }),
    /** Arrived after the session expired or was cancelled: still forwarded, never counted. */
    late: boolean("late").notNull().default(false),
    /**
     * The sweep that moved (or will move) these tokens; null while the deposit waits to be
     * planned (below its token's minimum, or another sweep of the address is in flight).
     */
    forwardId: bigint("forward_id", { mode: "number" }),
    /**
     * Set when the deposit is recorded (and again when its session completes): the planner has
     * to look at it. Durable, so a crash between recording and planning loses nothing.
     */
    needsPlanning: boolean("needs_planning").notNull().default(true),
    /**
     * Not planned before this time: a below-minimum completion sweep that the rest of its merchant's
     * daily gas budget cannot pay waits for the next UTC day (lib/engine/forwarding/dust-gate.ts). Null: plan at once.
     */
    planAfter: timestamptz("plan_after"),
    /**
     * A late deposit of a fiat session that expired unpaid, re-priced at its block's rate
     * (lib/domain/payments/reprice-late.ts): 'due' waits for the expire job; 'counted' counts at
     * reprice_rate; 'late' stays late. Null: not a candidate.
     */
    reprice: text("reprice").$type<"due" | "counted" | "late">(),
    /** The rate of the deposit's block (fiat per whole token, 8 decimals), when it could be read. */
    repriceRate: text("reprice_rate"),
    /** "chain:block N" (and the feeds read), when re-priced. */
    repriceSource: text("reprice_source"),
    repricedAt: timestamptz("repriced_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("deposits_chain_tx_log_unique").on(t.network, t.txHash, t.logIndex),
    index("deposits_session_idx").on(t.sessionId),
    index("deposits_forward_idx").on(t.forwardId),
    index("deposits_unplanned_idx").on(t.network, t.toAddress).where(sql`${t.forwardId} is null`),
    index("deposits_needs_planning_idx").on(t.network, t.toAddress).where(sql`${t.needsPlanning}`),
    index("deposits_address_token_idx").on(t.network, t.toAddress, t.tokenContract),
    /** The reconciliation's addresses with recent deposits (lib/ops/custody/reconcile-coverage.ts). */
    index("deposits_network_created_idx").on(t.network, t.createdAt),
    // The dashboard's search by payer and by transaction (drizzle/0028_search_indexes.sql).
    index("deposits_from_address_search_idx").on(sql`lower(${t.fromAddress}) text_pattern_ops`),
    index("deposits_tx_hash_search_idx").on(sql`lower(${t.txHash}) text_pattern_ops`),
    index("deposits_reprice_due_idx").on(t.id).where(sql`${t.reprice} = 'due'`),
    check("deposits_reprice_check", sql`${t.reprice} IN ('due', 'counted', 'late')`),
  ],
);

export type Deposit = typeof deposits.$inferSelect;
