import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "../columns";
import { chainTransactions } from "../engine/chain-transactions";
import { apiKeys } from "../merchants/api-keys";
import { domains } from "../merchants/domains";
import { tokens } from "../merchants/tokens";
import { users } from "../merchants/users";
import { refunds } from "./refunds";

/**
 * submitted → completed | failed (withdrawal-state.ts); above an approval threshold it starts
 * awaiting_approval (no transaction yet) → submitted once approved, or → rejected (never sent).
 */
export const WITHDRAWAL_STATUSES = ["submitted", "completed", "failed", "awaiting_approval", "rejected"] as const;
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
    /** The refund this withdrawal pays out (at most one withdrawal per refund). */
    refundId: uuid("refund_id").references(() => refunds.id),
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
    /** Null while awaiting approval (or rejected): nothing is signed before a second member approves. */
    nonce: bigint("nonce", { mode: "number" }),
    /** The hash that used (or is on its way to use) the nonce: the ledger row's, or its re-priced copy once mined. */
    txHash: text("tx_hash"),
    /** Its transaction in the ledger (chain_transactions): the signed bytes, broadcasts and outcome live there. */
    chainTxId: bigint("chain_tx_id", { mode: "number" }).references(() => chainTransactions.id),
    gasLimit: amount("gas_limit"),
    gasPrice: amount("gas_price"),
    status: text("status", { enum: WITHDRAWAL_STATUSES }).notNull().default("submitted"),
    failureReason: text("failure_reason"),
    confirmedAt: timestamptz("confirmed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("withdrawals_wallet_nonce_unique").on(t.network, t.fromAddress, t.nonce),
    uniqueIndex("withdrawals_refund_unique").on(t.refundId),
    // The API history's keyset, and its deep pages read index-only (withdrawal-view.ts).
    index("withdrawals_key_created_id_idx").on(t.apiKeyId, t.createdAt, t.id),
    index("withdrawals_key_status_created_id_idx").on(t.apiKeyId, t.status, t.createdAt, t.id),
    index("withdrawals_user_created_id_idx").on(t.userId, t.createdAt.desc(), t.id.desc()),
    index("withdrawals_submitted_idx").on(t.createdAt).where(sql`${t.status} = 'submitted'`),
  ],
);

export type Withdrawal = typeof withdrawals.$inferSelect;

/** A withdrawal with its transaction in the ledger: every one but those awaiting approval, rejected, or refused at approval. */
export type RecordedWithdrawal = Withdrawal & { nonce: number; txHash: string; chainTxId: number; gasLimit: bigint; gasPrice: bigint };

export function isRecordedWithdrawal(withdrawal: Withdrawal): withdrawal is RecordedWithdrawal {
  return (
    withdrawal.nonce !== null &&
    withdrawal.txHash !== null &&
    withdrawal.chainTxId !== null &&
    withdrawal.gasLimit !== null &&
    withdrawal.gasPrice !== null
  );
}
