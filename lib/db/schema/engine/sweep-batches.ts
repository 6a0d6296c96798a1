/**
 * What batched (EIP-7702) sweeping asked the gas tank to send — the one-time deployments of the
 * sweep contracts and the batches themselves — with what a batch carries (token, entries,
 * authorizations). `cancel` rows are older than the ledger, which fills a refused nonce itself now.
 * The signed transaction is a ledger row (chainTxId): the ledger sends, re-prices and settles it;
 * this row takes its outcome, and a batch applies it to its forwards.
 *   sent ──(receipt)──▶ mined | reverted;  sent ──(its nonce used by another transaction)──▶ replaced
 */
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "../columns";
import { chainTransactions } from "./chain-transactions";

export const SWEEP_BATCH_KINDS = ["sweep", "deploy_sweeper", "deploy_delegate", "cancel"] as const;
export const SWEEP_BATCH_STATUSES = ["sent", "mined", "reverted", "replaced"] as const;

export const sweepBatches = pgTable(
  "sweep_batches",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    network: text("network").notNull(),
    kind: text("kind", { enum: SWEEP_BATCH_KINDS }).notNull().default("sweep"),
    tokenContract: text("token_contract"),
    /** Entries (forwards) and, of them, the authorizations it carries (addresses delegating now). */
    size: integer("size").notNull().default(0),
    authorizations: integer("authorizations").notNull().default(0),
    fromAddress: text("from_address").notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    gasLimit: amount("gas_limit").notNull(),
    gasPrice: amount("gas_price").notNull(),
    /** The transaction in the ledger (chain_transactions), which sends, re-prices and settles it. */
    chainTxId: bigint("chain_tx_id", { mode: "number" }).references(() => chainTransactions.id),
    /** The hash first signed; a re-priced copy that mined is named by the ledger. */
    txHash: text("tx_hash").notNull(),
    status: text("status", { enum: SWEEP_BATCH_STATUSES }).notNull().default("sent"),
    gasUsed: amount("gas_used"),
    lastError: text("last_error"),
    minedAt: timestamptz("mined_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("sweep_batches_tx_hash_idx").on(t.txHash),
    index("sweep_batches_open_idx").on(t.network).where(sql`${t.status} = 'sent'`),
  ],
);

export type SweepBatch = typeof sweepBatches.$inferSelect;
