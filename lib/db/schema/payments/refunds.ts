import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz, updatedAt } from "../columns";
import { apiKeys } from "../merchants/api-keys";
import { users } from "../merchants/users";
import { paymentSessions } from "./payment-sessions";

/**
 * awaiting_address (the claim URL waits for the payer) → sending (its withdrawal is recorded) →
 * completed | failed; awaiting_address → cancelled (by the merchant, or its claim expired).
 * awaiting_funds: it has its address but the withdrawal wallet cannot pay it yet; sent (→ sending)
 * as soon as it can, or cancelled by the merchant.
 * Above the account's approval threshold it is approved with its destination: with the merchant's
 * address it starts awaiting_approval (nothing sent) → sending | awaiting_funds once a second member
 * approves, or → rejected (final, never sent); without one it opens its claim first
 * (approval_on_claim), and the payer's claimed address goes awaiting_approval before anything is signed.
 */
export const REFUND_STATUSES = [
  "awaiting_address",
  "awaiting_funds",
  "sending",
  "completed",
  "failed",
  "cancelled",
  "awaiting_approval",
  "rejected",
] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Statuses whose amount is spoken for: a payment is never refunded beyond what it received. */
export const ACTIVE_REFUND_STATUSES = [
  "awaiting_approval",
  "awaiting_address",
  "awaiting_funds",
  "sending",
  "completed",
] as const satisfies readonly RefundStatus[];

/** What a refund of a fiat-priced payment gives back: the tokens paid, or a fiat amount at the rate of its creation. */
export const REFUND_BASES = ["tokens", "fiat"] as const;
export type RefundBasisKind = (typeof REFUND_BASES)[number];

export const refunds = pgTable(
  "refunds",
  {
    /** UUID v4. Not a secret (docs/design.md §26): the claim needs the secret of claim_secret_hash as well. */
    id: uuid("id").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => paymentSessions.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The API key that created it; null when the merchant created it on the dashboard. */
    apiKeyId: integer("api_key_id").references(() => apiKeys.id, { onDelete: "cascade" }),
    /**
     * The member who created it (on the dashboard, or the creator of the API key): the one who may
     * issue a new claim link. Null once that user is gone. Refunds made before 0045: see that migration.
     */
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    /**
     * SHA-256 (hex) of the claim link's secret (claim-secret.ts); the secret itself is never stored.
     * Null: no claim link (sent to the merchant's address, or made before 0045 — a new link is issued).
     */
    claimSecretHash: text("claim_secret_hash"),
    /** Above the approval threshold without an address: the payer's claimed address goes to approval, not out. */
    approvalOnClaim: boolean("approval_on_claim").notNull().default(false),
    amount: amount("amount").notNull(),
    status: text("status", { enum: REFUND_STATUSES }).notNull(),
    /** Where it goes: given by the merchant, or by the payer on the claim page. Checksummed. */
    toAddress: text("to_address"),
    /** Who chose the address: "merchant" or "payer". */
    addressFrom: text("address_from", { enum: ["merchant", "payer"] }),
    claimExpiresAt: timestamptz("claim_expires_at").notNull(),
    /** Why it failed (the withdrawal's reason) or was cancelled ("cancelled by the merchant", "the claim expired"); while awaiting_funds, why the wallet cannot pay it yet. */
    reason: text("reason"),
    /** Refunds of fiat-priced payments only (null for token-priced ones): "tokens" or "fiat". */
    basis: text("basis", { enum: REFUND_BASES }),
    /** basis "fiat": the currency, the amount in its minor units, the rate used (fiat per whole token, 8 decimals), its source and when it was read. */
    currency: text("currency"),
    fiatAmount: amount("fiat_amount"),
    rate: text("rate"),
    rateSource: text("rate_source"),
    ratedAt: timestamptz("rated_at"),
    completedAt: timestamptz("completed_at"),
    cancelledAt: timestamptz("cancelled_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("refunds_session_idx").on(t.sessionId),
    index("refunds_user_created_idx").on(t.userId, t.createdAt),
    index("refunds_created_by_idx").on(t.createdBy),
    index("refunds_awaiting_expiry_idx").on(t.claimExpiresAt).where(sql`${t.status} = 'awaiting_address'`),
    // The job that sends refunds once their wallet can pay takes the longest-unchecked first (updated_at: its last check).
    index("refunds_awaiting_funds_idx").on(t.updatedAt).where(sql`${t.status} = 'awaiting_funds'`),
    check("refunds_claim_secret_hash_check", sql`${t.claimSecretHash} IS NULL OR ${t.claimSecretHash} ~ '^[0-9a-f]{64}$'`),
    check("refunds_basis_check", sql`${t.basis} IS NULL OR ${t.basis} IN ('tokens', 'fiat')`),
    check(
      "refunds_fiat_basis_check",
      sql`CASE WHEN ${t.basis} = 'fiat' THEN ${t.currency} IS NOT NULL AND ${t.fiatAmount} IS NOT NULL AND ${t.rate} IS NOT NULL AND ${t.rateSource} IS NOT NULL AND ${t.ratedAt} IS NOT NULL ELSE ${t.currency} IS NULL AND ${t.fiatAmount} IS NULL AND ${t.rate} IS NULL AND ${t.rateSource} IS NULL AND ${t.ratedAt} IS NULL END`,
    ),
  ],
);

export type Refund = typeof refunds.$inferSelect;
