import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "./columns";
import { deposits } from "./deposits";

export const FORWARD_STATUSES = ["pending", "gas_sent", "sweep_sent", "completed", "failed"] as const;

/**
 * The sweep of one deposit to its forward target: gas top-up from the gas tank, then the token
 * transfer from the deposit key. Each signed transaction is stored before it is broadcast, so a
 * retry re-sends the same bytes and can never pay twice.
 */
export const forwards = pgTable(
  "forwards",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    depositId: bigint("deposit_id", { mode: "number" })
      .notNull()
      .references(() => deposits.id, { onDelete: "cascade" }),
    network: text("network").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    tokenContract: text("token_contract").notNull(),
    amount: amount("amount").notNull(),
    status: text("status", { enum: FORWARD_STATUSES }).notNull().default("pending"),
    /** Gas price of both transactions and the sweep's gas limit, fixed when the top-up is signed. */
    gasPrice: amount("gas_price"),
    sweepGasLimit: amount("sweep_gas_limit"),
    /** BNB sent by the gas tank (0 when the deposit address already held enough). */
    gasAmount: amount("gas_amount"),
    gasNonce: bigint("gas_nonce", { mode: "number" }),
    gasTxHash: text("gas_tx_hash"),
    gasRawTx: text("gas_raw_tx"),
    sweepNonce: bigint("sweep_nonce", { mode: "number" }),
    sweepTxHash: text("sweep_tx_hash"),
    sweepRawTx: text("sweep_raw_tx"),
    gasUsed: amount("gas_used"),
    attempts: integer("attempts").notNull().default(0),
    /** A worker's claim on this forward; another worker skips it until then. */
    lockedUntil: timestamptz("locked_until"),
    lastError: text("last_error"),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    completedAt: timestamptz("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("forwards_deposit_unique").on(t.depositId),
    index("forwards_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} not in ('completed', 'failed')`),
  ],
);

export type Forward = typeof forwards.$inferSelect;
