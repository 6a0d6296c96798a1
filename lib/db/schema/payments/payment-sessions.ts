import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgSequence, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { amount, amountSum, createdAt, timestamptz, updatedAt } from "../columns";
import { apiKeys } from "../merchants/api-keys";
import { domains } from "../merchants/domains";
import { tokens } from "../merchants/tokens";
import { users } from "../merchants/users";
import { paymentLinks } from "./payment-links";

/**
 * HD index of the next deposit address (m/44'/60'/0'/0/i). A sequence never hands out the same
 * value twice, across concurrent requests and processes, and never rolls back: no address is reused.
 */
export const depositIndexSeq = pgSequence("deposit_index_seq", { startWith: 0, minValue: 0 });

export const SESSION_STATUSES = ["pending", "completed", "expired", "cancelled"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const paymentSessions = pgTable(
  "payment_sessions",
  {
    /** Public, unguessable (UUID v4): the checkout page is reachable by anyone who has it. */
    id: uuid("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Null: created on the dashboard, not through an API key (no key's history lists it). */
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id),
    domainId: integer("domain_id").references(() => domains.id),
    network: text("network").notNull(),
    chainId: integer("chain_id").notNull(),
    depositIndex: bigint("deposit_index", { mode: "number" }).notNull(),
    /** Checksummed. */
    depositAddress: text("deposit_address").notNull(),
    /** Lower-case hex without 0x, left-padded to 32 bytes: what a Transfer log's topic[2] holds. */
    depositTopic: text("deposit_topic").notNull(),
    amount: amount("amount").notNull(),
    receivedAmount: amountSum("received_amount").notNull().default(sql`0`),
    /** Where received tokens are forwarded (docs/design.md §5), fixed at creation. */
    forwardTo: text("forward_to").notNull(),
    merchantWallet: text("merchant_wallet"),
    status: text("status", { enum: SESSION_STATUSES }).notNull().default("pending"),
    overpaid: boolean("overpaid").notNull().default(false),
    /** Transfers that arrived too late (or in another token): never counted, always forwarded. */
    late: boolean("late").notNull().default(false),
    /** Sum of the late transfers of the session's own token. */
    lateAmount: amountSum("late_amount").notNull().default(sql`0`),
    /** The transfer that completed the session. */
    txHash: text("tx_hash"),
    metadata: jsonb("metadata"),
    /** The merchant's words for the payer ("2 coffees"), shown on the checkout page under the amount. */
    description: text("description"),
    /** The shop's own order reference, for finding the payment again (API, dashboard search, webhooks). */
    orderId: text("order_id"),
    /** The payment link whose page created it (null: the API or the dashboard). */
    paymentLinkId: integer("payment_link_id").references(() => paymentLinks.id),
    /**
     * When the session was counted against its merchant's monthly quota. A payment link's session
     * is counted only once something is paid to it (null until then; lib/domain/plans/count-link-sessions.ts).
     */
    quotaCountedAt: timestamptz("quota_counted_at").default(sql`now()`),
    /** A payment link's session: a hash of the client that pressed Pay, so its repeated Pay returns this session. */
    linkClient: text("link_client"),
    redirectUrl: text("redirect_url"),
    expiresAt: timestamptz("expires_at").notNull(),
    completedAt: timestamptz("completed_at"),
    cancelledAt: timestamptz("cancelled_at"),
    /**
     * The network's latest block when the cancel came (null: it could not be read, then block time
     * decides): transfers in later blocks are late, whatever their block's second says.
     */
    cancelledAtBlock: bigint("cancelled_at_block", { mode: "bigint" }),
    expiredAt: timestamptz("expired_at"),
    /**
     * A fiat-priced session (docs/design.md §23): ISO 4217 and the price in its minor units. Null: priced
     * in a token (`amount` of `token_id`). For a fiat session `token_id`/`amount` are the token the
     * payer is asked for now (the first offered, the one chosen, or the one paid first) and its quote.
     */
    currency: text("currency"),
    fiatAmount: amount("fiat_amount"),
    /** The rate of token_id's quote (fiat per whole token, session_quotes.rate). */
    rate: text("rate"),
    /**
     * Where `rate` came from and when it was read: its quote's source and time, or "chain:block N"
     * and that block's time when a transfer after the window was re-priced (reprice-late.ts).
     */
    rateSource: text("rate_source"),
    ratedAt: timestamptz("rated_at"),
    /** When the payer chose token_id on the checkout page (null: not chosen). */
    tokenChosenAt: timestamptz("token_chosen_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payment_sessions_deposit_index_unique").on(t.depositIndex),
    uniqueIndex("payment_sessions_deposit_topic_unique").on(t.network, t.depositTopic),
    // The API history's keyset, and its deep pages read index-only: ids by offset, then those rows (list-history.ts).
    index("payment_sessions_key_created_id_idx").on(t.apiKeyId, t.createdAt, t.id),
    index("payment_sessions_key_status_created_id_idx").on(t.apiKeyId, t.status, t.createdAt, t.id),
    // The dashboard's list by keyset and its search (drizzle/0028_search_indexes.sql, lib/web/dashboard/payments/payment-search.ts).
    index("payment_sessions_user_created_id_idx").on(t.userId, t.createdAt.desc(), t.id.desc()),
    // Whole, not partial: the planner reads an expression's statistics from whole indexes only.
    index("payment_sessions_user_order_search_idx").on(t.userId, sql`lower(${t.orderId}) text_pattern_ops`),
    index("payment_sessions_user_tx_hash_search_idx").on(t.userId, sql`lower(${t.txHash}) text_pattern_ops`),
    index("payment_sessions_user_deposit_address_search_idx").on(t.userId, sql`lower(${t.depositAddress}) text_pattern_ops`),
    index("payment_sessions_metadata_search_idx").using("gin", t.metadata),
    index("payment_sessions_key_order_idx").on(t.apiKeyId, t.orderId),
    index("payment_sessions_link_created_idx").on(t.paymentLinkId, t.createdAt),
    index("payment_sessions_link_open_idx").on(t.paymentLinkId, t.expiresAt).where(sql`${t.status} = 'pending'`),
    index("payment_sessions_pending_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    // The history expires its key's due sessions before listing: only those, whatever the history's size.
    index("payment_sessions_key_pending_expiry_idx").on(t.apiKeyId, t.expiresAt).where(sql`${t.status} = 'pending'`),
    // …and the dashboard its merchant's (drizzle/0029_user_pending_expiry.sql).
    index("payment_sessions_user_pending_expiry_idx").on(t.userId, t.expiresAt).where(sql`${t.status} = 'pending'`),
    check("payment_sessions_fiat_check", sql`(${t.currency} IS NULL) = (${t.fiatAmount} IS NULL)`),
  ],
);

export type PaymentSession = typeof paymentSessions.$inferSelect;
export type NewPaymentSession = typeof paymentSessions.$inferInsert;
