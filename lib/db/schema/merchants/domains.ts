import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";
import { users } from "./users";

/**
 * A whitelisted shop origin. Its id d is also the HD index of its withdrawal wallet
 * (m/44'/60'/2'/0/d, docs/design.md §7); identity ids are never reused, and a deleted domain is only
 * marked deleted so its wallet (which may still hold funds) stays traceable.
 */
export const domains = pgTable(
  "domains",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Normalised origin: scheme://host[:port], lower case, no default port, no path. */
    origin: text("origin").notNull(),
    /** Where this domain's payments are forwarded now; a requested change waits in the pending_payout_* columns. */
    payoutAddress: text("payout_address"),
    /**
     * A requested payout change not in force yet (docs/design.md §21): it takes effect at
     * payout_change_effective_at (null: no change pending). The address may be null (back to the
     * withdrawal wallet). Read the address in force only through lib/domain/merchant-domains/payout-change.ts (payoutAddressInForce).
     */
    pendingPayoutAddress: text("pending_payout_address"),
    payoutChangeRequestedAt: timestamptz("payout_change_requested_at"),
    payoutChangeEffectiveAt: timestamptz("payout_change_effective_at"),
    /** The user whose session asked for it. */
    payoutChangeRequestedBy: integer("payout_change_requested_by"),
    webhookUrl: text("webhook_url"),
    /** Checksummed address of the domain's withdrawal wallet, stored for lookups and display. */
    withdrawalAddress: text("withdrawal_address"),
    /** A fiat session of this domain short by less than this many basis points counts as paid (0–1000); null: FIAT_UNDERPAY_BPS. */
    fiatUnderpayBps: integer("fiat_underpay_bps"),
    /** How far a late transfer's block rate may be from the locked quote and still count (0–1000 bps); null: FIAT_RATE_TOLERANCE_BPS. */
    fiatRateToleranceBps: integer("fiat_rate_tolerance_bps"),
    deletedAt: timestamptz("deleted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("domains_user_origin_unique").on(t.userId, t.origin).where(sql`${t.deletedAt} is null`),
    index("domains_user_idx").on(t.userId, t.id),
    // "Is this address one of our withdrawal wallets?" (no forwarding chains)
    index("domains_withdrawal_address_idx").on(t.withdrawalAddress),
    // The job that applies due payout changes reads only the domains with one pending.
    index("domains_payout_change_due_idx").on(t.payoutChangeEffectiveAt).where(sql`${t.payoutChangeEffectiveAt} is not null`),
    check("domains_fiat_underpay_bps_check", sql`${t.fiatUnderpayBps} BETWEEN 0 AND 1000`),
    check("domains_fiat_rate_tolerance_bps_check", sql`${t.fiatRateToleranceBps} BETWEEN 0 AND 1000`),
  ],
);

export type Domain = typeof domains.$inferSelect;
