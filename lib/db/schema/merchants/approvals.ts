import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { amount, createdAt, timestamptz } from "../columns";
import { apiKeys } from "./api-keys";
import { domains } from "./domains";
import { tokens } from "./tokens";
import { users } from "./users";

/**
 * Per account and token, what needs a second member's approval (docs/design.md §24): a money-out request
 * above `per_request_limit`, or one that takes the day's (UTC) money out of the token above
 * `per_day_limit`. Null: no limit of that kind. Amounts in the token's base units.
 */
export const approvalPolicies = pgTable(
  "approval_policies",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The account's `tokens` row (withdrawals, refunds and payouts name tokens by it). */
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id, { onDelete: "cascade" }),
    perRequestLimit: amount("per_request_limit"),
    perDayLimit: amount("per_day_limit"),
    updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "approval_policies_pk", columns: [t.accountId, t.tokenId] })],
);

export type ApprovalPolicy = typeof approvalPolicies.$inferSelect;

export const APPROVAL_KINDS = ["withdrawal", "refund", "payout"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];
export const APPROVAL_STATUSES = ["awaiting_approval", "approved", "rejected", "expired"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/**
 * One money-out request that waits for a second member (lib/domain/approvals): its subject is the
 * withdrawal, refund or payout batch (`subject_id`, by kind) that stays `awaiting_approval` meanwhile.
 */
export const approvals = pgTable(
  "approvals",
  {
    /** Public: `apr_` + 24 hex characters. */
    id: text("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ApprovalKind>().notNull(),
    subjectId: text("subject_id").notNull(),
    /** The domain whose wallet pays (its webhook endpoint hears approval.*); null once the domain is gone. */
    domainId: integer("domain_id").references(() => domains.id, { onDelete: "set null" }),
    tokenId: integer("token_id")
      .notNull()
      .references(() => tokens.id, { onDelete: "cascade" }),
    amount: amount("amount").notNull(),
    /**
     * SHA-256 of what the money does (lib/domain/approval-requests/content.ts: kind, wallet, token, amount,
     * destination or items, the payment a refund belongs to) when it was asked for; an approval
     * approves exactly this, and `approved_content_hash` records what the approver's code confirmed.
     * Null for requests made before 0047 (their content is hashed as it is when approved).
     */
    contentHash: text("content_hash"),
    approvedContentHash: text("approved_content_hash"),
    /** The member who asked (dashboard), or the API key (both null: the key or member is gone). */
    requestedByUserId: integer("requested_by_user_id").references(() => users.id, { onDelete: "set null" }),
    requestedByApiKeyId: integer("requested_by_api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    status: text("status").$type<ApprovalStatus>().notNull().default("awaiting_approval"),
    decidedByUserId: integer("decided_by_user_id").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamptz("decided_at"),
    reason: text("reason"),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("approvals_inbox_idx").on(t.accountId, t.status, t.createdAt.desc(), t.id.desc()),
    uniqueIndex("approvals_subject_unique").on(t.kind, t.subjectId),
    index("approvals_awaiting_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'awaiting_approval'`),
    check("approvals_kind_check", sql`${t.kind} in ('withdrawal', 'refund', 'payout')`),
    check("approvals_status_check", sql`${t.status} in ('awaiting_approval', 'approved', 'rejected', 'expired')`),
  ],
);

export type Approval = typeof approvals.$inferSelect;
