import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys";
import { amount, createdAt, timestamptz, updatedAt } from "./columns";
import { domains } from "./domains";
import { tokens } from "./tokens";
import { users } from "./users";

export const WITHDRAWAL_STATUSES = ["submitted", "completed", "failed"] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const withdrawals = pgTable(
  "withdrawals",
  {
    id: uuid("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The API key that sent it; null when the merchant sent it from the dashboard. */
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    /** The dashboard form's id for this send: a double click sends once. */
    clientRequestId: text("client_request_id"),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id),
    network: text("network").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    amount: amount("amount").notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    txHash: text("tx_hash").notNull(),
    /** The signed transaction, so a failed broadcast is retried with the very same bytes. */
    rawTx: text("raw_tx").notNull(),
    gasLimit: amount("gas_limit").notNull(),
    gasPrice: amount("gas_price").notNull(),
    status: text("status", { enum: WITHDRAWAL_STATUSES }).notNull().default("submitted"),
    /** When the transaction could not be broadcast, the 0-value self-transfer that filled its nonce. */
    fillerTxHash: text("filler_tx_hash"),
    /** The filler, signed; cleared once its nonce is mined. */
    fillerRawTx: text("filler_raw_tx"),
    failureReason: text("failure_reason"),
    /** Why the node refused the broadcast; the withdrawal stays submitted until its nonce is settled. */
    broadcastError: text("broadcast_error"),
    broadcastAt: timestamptz("broadcast_at"),
    confirmedAt: timestamptz("confirmed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("withdrawals_wallet_nonce_unique").on(t.network, t.fromAddress, t.nonce),
    uniqueIndex("withdrawals_client_request_unique").on(t.userId, t.clientRequestId),
    index("withdrawals_user_created_idx").on(t.userId, t.createdAt),
    index("withdrawals_key_created_idx").on(t.apiKeyId, t.createdAt),
    index("withdrawals_key_status_created_idx").on(t.apiKeyId, t.status, t.createdAt),
    index("withdrawals_submitted_idx").on(t.createdAt).where(sql`${t.status} = 'submitted'`),
  ],
);

export type Withdrawal = typeof withdrawals.$inferSelect;

/**
 * BNB sent by the gas tank to a withdrawal wallet so it can pay gas; stored signed before it is
 * broadcast and re-broadcast until mined, so the gas tank's nonce sequence never has a hole.
 */
export const gasTopUps = pgTable(
  "gas_top_ups",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    network: text("network").notNull(),
    toAddress: text("to_address").notNull(),
    value: amount("value").notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    txHash: text("tx_hash").notNull(),
    rawTx: text("raw_tx").notNull(),
    minedAt: timestamptz("mined_at"),
    createdAt: createdAt(),
  },
  (t) => [index("gas_top_ups_unmined_idx").on(t.createdAt).where(sql`${t.minedAt} is null`)],
);
