import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { amount, amountSum, createdAt, timestamptz, updatedAt } from "../columns";
import { deposits } from "../payments/deposits";
import { chainTransactions } from "./chain-transactions";

/**
 * Classic: pending → gas_sent → sweep_sent → completed. Batched (EIP-7702): pending → batched →
 * completed, or back to pending as `classicOnly` when its entry of the batch failed. Either way
 * held when it needs the operator (over the gas cap, balance short, token reverts, too many
 * failed attempts).
 */
export const FORWARD_STATUSES = ["pending", "gas_sent", "sweep_sent", "batched", "completed", "held"] as const;
export type ForwardStatus = (typeof FORWARD_STATUSES)[number];
/** A transaction of the forward may be on its way: the deposit address's nonce (or its authorization) is taken. */
export const IN_FLIGHT_FORWARD_STATUSES = ["gas_sent", "sweep_sent", "batched"] as const;
/** Not finished and not held: the forward is making progress on its own. */
export const OPEN_FORWARD_STATUSES = ["pending", ...IN_FLIGHT_FORWARD_STATUSES] as const;

/**
 * One sweep of a deposit address's balance of one token to its forward target: gas top-up from
 * the gas tank, then the token transfer from the deposit key. It covers every deposit of that
 * address and token not swept yet (deposits.forward_id). Each signed transaction is stored before
 * it is broadcast — as a row of the ledger (chain_transactions) — so a retry re-sends the same
 * bytes and can never pay twice.
 */
export const forwards = pgTable(
  "forwards",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The first deposit it covers (rows from before sweeps covered several: the only one). */
    depositId: bigint("deposit_id", { mode: "number" }).references(() => deposits.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id"),
    network: text("network").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    tokenContract: text("token_contract").notNull(),
    /** Planned: the unswept deposits; from the gas step on: the balance being swept. */
    amount: amountSum("amount").notNull(),
    status: text("status", { enum: FORWARD_STATUSES }).notNull().default("pending"),
    /** Gas price of both transactions and the sweep's gas limit, fixed when the top-up is signed. */
    gasPrice: amount("gas_price"),
    sweepGasLimit: amount("sweep_gas_limit"),
    /** BNB sent by the gas tank (0 when the deposit address already held enough). */
    gasAmount: amount("gas_amount"),
    /** The gas tank's top-up in the ledger (chain_transactions); its nonce and hash are kept here for display. */
    gasTxId: bigint("gas_tx_id", { mode: "number" }).references(() => chainTransactions.id),
    gasNonce: bigint("gas_nonce", { mode: "number" }),
    gasTxHash: text("gas_tx_hash"),
    /** The deposit key's token transfer in the ledger. */
    sweepTxId: bigint("sweep_tx_id", { mode: "number" }).references(() => chainTransactions.id),
    sweepNonce: bigint("sweep_nonce", { mode: "number" }),
    sweepTxHash: text("sweep_tx_hash"),
    gasUsed: amount("gas_used"),
    /** The batch sweeping it (sweep_batches.id) and its entry there, while batched and once done. */
    batchId: bigint("batch_id", { mode: "number" }),
    batchIndex: integer("batch_index"),
    /** Its batch entry failed (a token that refuses the delegate's call): only the classic path from now on. */
    classicOnly: boolean("classic_only").notNull().default(false),
    /** Failed attempts since the last operator retry; bounded (then held). */
    attempts: integer("attempts").notNull().default(0),
    /** Sweeps mined but reverted since the last operator retry; bounded (then held). */
    sweepReverts: integer("sweep_reverts").notNull().default(0),
    /** A worker's claim on this forward; another worker skips it until then. */
    lockedUntil: timestamptz("locked_until"),
    lastError: text("last_error"),
    heldReason: text("held_reason"),
    heldAt: timestamptz("held_at"),
    nextAttemptAt: timestamptz("next_attempt_at").notNull().defaultNow(),
    completedAt: timestamptz("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("forwards_deposit_idx").on(t.depositId),
    /** A payment's page reads its sweeps by session (lib/web/dashboard/payments/payment-detail.ts). */
    index("forwards_session_idx").on(t.sessionId),
    index("forwards_group_idx").on(t.network, t.fromAddress, t.tokenContract),
    index("forwards_due_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'gas_sent', 'sweep_sent', 'batched')`),
    index("forwards_batch_idx").on(t.batchId).where(sql`${t.batchId} is not null`),
    index("forwards_held_idx").on(t.network).where(sql`${t.status} = 'held'`),
  ],
);

export type Forward = typeof forwards.$inferSelect;
