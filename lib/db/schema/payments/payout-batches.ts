/**
 * Payouts to many at once (docs/design.md §24): a batch per request, an item per recipient. The
 * batch's and items' status are written only by lib/domain/payouts/payout-records.ts, as the
 * pure decider payout-state.ts says; a sending item points at its chunk's ledger row.
 */
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "../columns";
import { chainTransactions } from "../engine/chain-transactions";
import { apiKeys } from "../merchants/api-keys";
import { domains } from "../merchants/domains";
import { tokens } from "../merchants/tokens";
import { users } from "../merchants/users";

export const PAYOUT_BATCH_STATUSES = [
  "awaiting_approval",
  "rejected",
  "pending",
  "sending",
  "completed",
  "partially_failed",
  "failed",
] as const;
export type PayoutBatchStatus = (typeof PAYOUT_BATCH_STATUSES)[number];

export const PAYOUT_ITEM_STATUSES = ["pending", "sending", "completed", "failed"] as const;
export type PayoutItemStatus = (typeof PAYOUT_ITEM_STATUSES)[number];

export const payoutBatches = pgTable(
  "payout_batches",
  {
    id: uuid("id").primaryKey(),
    /** The merchant (account) whose wallet pays. */
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The API key that asked; null from the dashboard. */
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    /** The member who asked (dashboard / approvals); null for an API key. */
    requestedBy: integer("requested_by").references(() => users.id, { onDelete: "set null" }),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id),
    network: text("network").notNull(),
    fromAddress: text("from_address").notNull(),
    total: amount("total").notNull(),
    itemCount: integer("item_count").notNull(),
    /**
     * Wei of the merchant's daily gas budget held for the chunks not yet signed: their
     * estimated gas when the batch is recorded, less each chunk's as it is signed; counted with the
     * day's spend while the batch is open.
     */
    gasReserved: amount("gas_reserved").notNull().default(sql`0`),
    status: text("status", { enum: PAYOUT_BATCH_STATUSES }).notNull().default("pending"),
    /** Why it was rejected. */
    reason: text("reason"),
    completedAt: timestamptz("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check(
      "payout_batches_status_check",
      sql`${t.status} IN ('awaiting_approval', 'rejected', 'pending', 'sending', 'completed', 'partially_failed', 'failed')`,
    ),
    index("payout_batches_key_created_id_idx").on(t.apiKeyId, t.createdAt, t.id),
    /** The dashboard's list of an account's batches (keyset, docs/design.md §25). */
    index("payout_batches_user_created_id_idx").on(t.userId, t.createdAt, t.id),
    // The gas an account's open batches hold against its daily budget (lib/domain/gas/limits.ts).
    index("payout_batches_gas_reserved_idx").on(t.userId).where(sql`${t.gasReserved} > 0`),
    index("payout_batches_open_idx").on(t.createdAt).where(sql`${t.status} IN ('pending', 'sending')`),
  ],
);

export const payoutItems = pgTable(
  "payout_items",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    batchId: uuid("batch_id")
      .notNull()
      .references(() => payoutBatches.id, { onDelete: "cascade" }),
    /** The item's index in the request's `items`. */
    position: integer("position").notNull(),
    toAddress: text("to_address").notNull(),
    amount: amount("amount").notNull(),
    reference: text("reference"),
    status: text("status", { enum: PAYOUT_ITEM_STATUSES }).notNull().default("pending"),
    /** The nonce of its chunk's BatchPayer.pay transaction (the ledger settles that nonce). */
    nonce: bigint("nonce", { mode: "number" }),
    /** Its chunk's pay transaction in the ledger, as first recorded (a re-priced copy shares the nonce). */
    chainTxId: bigint("chain_tx_id", { mode: "number" }).references(() => chainTransactions.id),
    /** The hash that paid it (the mined row's, once settled). */
    txHash: text("tx_hash"),
    failureReason: text("failure_reason"),
    completedAt: timestamptz("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("payout_items_status_check", sql`${t.status} IN ('pending', 'sending', 'completed', 'failed')`),
    check("payout_items_reference_check", sql`${t.reference} IS NULL OR char_length(${t.reference}) <= 200`),
    check("payout_items_sending_check", sql`${t.status} = 'pending' OR ${t.status} = 'failed' OR ${t.chainTxId} IS NOT NULL`),
    uniqueIndex("payout_items_batch_position_unique").on(t.batchId, t.position),
    index("payout_items_batch_nonce_idx").on(t.batchId, t.nonce),
    index("payout_items_open_idx").on(t.batchId).where(sql`${t.status} IN ('pending', 'sending')`),
  ],
);

export type PayoutBatch = typeof payoutBatches.$inferSelect;
export type PayoutItem = typeof payoutItems.$inferSelect;
