/**
 * The ledger of every transaction the service signs (docs/design.md §17). A row is written, signed,
 * in the same database transaction that takes its nonce, before it is ever broadcast; only these
 * bytes are sent again. Business records (forwards, withdrawals, batches) point at their row and
 * take their outcome from it; lib/engine/ledger owns the status.
 *
 *   pending ──(a receipt)──────────────────────────────────────────▶ mined | reverted
 *   pending ──(another row of its wallet and nonce has a receipt)──▶ replaced (replacedById)
 *   pending ──(the nonce used on chain, no receipt for DROP_AFTER_BLOCKS read at pinned blocks)──▶ replaced
 * A row at the wallet's next nonce that is not mined in time is re-priced (the same payload at a
 * higher fee) or cancelled (a 0-value self-transfer): a new row with `replacesId`, same nonce.
 */
import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "../columns";

export const CHAIN_TRANSACTION_KINDS = [
  /** Gas tank → deposit address: the BNB a classic sweep needs. */
  "sweep_gas",
  /** Deposit address → forward target: the token transfer of a classic sweep. */
  "sweep",
  /** Gas tank → a withdrawal wallet: the BNB its sends need. */
  "wallet_gas",
  /** Withdrawal wallet → recipient. */
  "withdrawal",
  /** A 0-value self-transfer that fills a nonce whose own transaction was refused or is stuck. */
  "cancel",
  /** A derived address → the operator's address: `npm run admin -- recover`. */
  "recovery",
  /** Gas tank → BatchSweeper.sweepBatch (EIP-7702, with the authorizations of deposit addresses not yet delegated). */
  "batch",
  /** Gas tank → the CREATE2 deployer: the sweep contracts, once per chain. */
  "deploy",
  /** Sweeper owner → BatchSweeper: pause, resume, or hand the operator role to the next gas tank. */
  "sweeper_admin",
  /** Withdrawal wallet → a token: approve(BatchPayer, a payout chunk's total). */
  "payout_approve",
  /** Withdrawal wallet → BatchPayer.pay: one chunk of a payout batch (lib/domain/payouts). */
  "payout",
  /** Withdrawal wallet → the CREATE2 deployer: BatchPayer, once per chain. */
  "payout_deploy",
] as const;
export type ChainTransactionKind = (typeof CHAIN_TRANSACTION_KINDS)[number];

export const CHAIN_TRANSACTION_STATUSES = ["pending", "mined", "reverted", "replaced"] as const;
export type ChainTransactionStatus = (typeof CHAIN_TRANSACTION_STATUSES)[number];

/** Which key of docs/design.md §7 signs: the gas tank, a domain's withdrawal wallet, a deposit address, the sweeper's owner. */
export const WALLET_ROLES = ["gas_tank", "withdrawal", "deposit", "sweeper_owner"] as const;
export type WalletRole = (typeof WALLET_ROLES)[number];

export const chainTransactions = pgTable(
  "chain_transactions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    network: text("network").notNull(),
    walletRole: text("wallet_role", { enum: WALLET_ROLES }).notNull(),
    /** The key's index under its role: 0 for the gas tank, the domain id, the deposit index. */
    walletIndex: bigint("wallet_index", { mode: "number" }).notNull(),
    wallet: text("wallet").notNull(),
    nonce: bigint("nonce", { mode: "number" }).notNull(),
    kind: text("kind", { enum: CHAIN_TRANSACTION_KINDS }).notNull(),
    toAddress: text("to_address").notNull(),
    value: amount("value").notNull(),
    gasLimit: amount("gas_limit").notNull(),
    /** Legacy gas price, or an EIP-7702 batch's max fee per gas (its priority fee is the same). */
    gasPrice: amount("gas_price").notNull(),
    txHash: text("tx_hash").notNull(),
    /** Null only for settled rows moved from a record that no longer kept the bytes (a mined filler). */
    rawTx: text("raw_tx"),
    status: text("status", { enum: CHAIN_TRANSACTION_STATUSES }).notNull().default("pending"),
    /** The row this one re-prices or cancels (same wallet and nonce). */
    replacesId: bigint("replaces_id", { mode: "number" }).references((): AnyPgColumn => chainTransactions.id),
    /** Settled as replaced: the row of the same nonce whose receipt we hold (null: a transaction outside the ledger). */
    replacedById: bigint("replaced_by_id", { mode: "number" }).references((): AnyPgColumn => chainTransactions.id),
    firstBroadcastAt: timestamptz("first_broadcast_at"),
    lastBroadcastAt: timestamptz("last_broadcast_at"),
    broadcasts: integer("broadcasts").notNull().default(0),
    /** What the node said when it last refused this transaction. */
    broadcastError: text("broadcast_error"),
    /** The pinned block at which the nonce was first seen used while no receipt of its rows was found. */
    nonceUsedSeenBlock: bigint("nonce_used_seen_block", { mode: "number" }),
    /** When the nonce was first seen used without a receipt of its rows: "taken by another" is decided in time from here. */
    nonceUsedSeenAt: timestamptz("nonce_used_seen_at"),
    /**
     * The block hash of this row's receipt as last read (with mined_block its number). Set while the
     * row is still pending too: it is final (mined/reverted) only once that block is at the network's
     * confirmation depth and still holds the receipt; a receipt that moves or vanishes is read again.
     */
    receiptBlockHash: text("receipt_block_hash"),
    /**
     * A nonce settled as taken by a transaction outside the ledger keeps having its receipts read
     * again (with backoff, for hours) in case a lagging node hid ours: the next read is due then.
     */
    receiptRecheckAt: timestamptz("receipt_recheck_at"),
    /** Set by the watchdog while this nonce blocks its wallet: since when (the nonce's first row). */
    stuckSince: timestamptz("stuck_since"),
    minedBlock: bigint("mined_block", { mode: "number" }),
    gasUsed: amount("gas_used"),
    /** Mined or reverted: what the sender paid (gas used × the receipt's effective gas price). */
    feePaid: amount("fee_paid"),
    settledAt: timestamptz("settled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("chain_transactions_hash_idx").on(t.txHash),
    // One original per nonce of a wallet: a second one would be a double allocation.
    uniqueIndex("chain_transactions_nonce_idx").on(t.network, t.wallet, t.nonce).where(sql`${t.replacesId} is null`),
    // Replacements form a chain, never a fork: two watchdogs cannot both replace one row.
    uniqueIndex("chain_transactions_replaces_idx").on(t.replacesId).where(sql`${t.replacesId} is not null`),
    index("chain_transactions_wallet_nonce_idx").on(t.network, t.wallet, t.nonce),
    // What the service itself sent to an address (a gas top-up of a deposit address): the balance poller explains its BNB by it.
    index("chain_transactions_to_idx").on(t.network, t.toAddress),
    index("chain_transactions_pending_idx").on(t.network, t.wallet).where(sql`${t.status} = 'pending'`),
  ],
);

export type ChainTransaction = typeof chainTransactions.$inferSelect;
export type NewChainTransaction = typeof chainTransactions.$inferInsert;
