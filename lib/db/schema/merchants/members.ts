import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, timestamptz, updatedAt } from "../columns";
import { users } from "./users";

/** The roles of a member, most powerful first (lib/accounts/members/roles.ts says what each may do). */
export const MEMBER_ROLES = ["owner", "admin", "finance", "developer", "viewer"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * Who belongs to which account, with which role (docs/design.md §24). An account is the users row its
 * data hangs off (`user_id` of the data tables); every user owns its home account (a trigger adds the
 * row when the user is inserted), and one member per account is its owner.
 */
export const accountMembers = pgTable(
  "account_members",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<MemberRole>().notNull(),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: "account_members_pk", columns: [t.accountId, t.userId] }),
    index("account_members_user_idx").on(t.userId),
    uniqueIndex("account_members_one_owner").on(t.accountId).where(sql`${t.role} = 'owner'`),
    check("account_members_role_check", sql`${t.role} in ('owner', 'admin', 'finance', 'developer', 'viewer')`),
  ],
);

export type AccountMember = typeof accountMembers.$inferSelect;

/** A link that lets whoever holds it join an account with a role, once, before it expires; only its hash is kept. */
export const accountInvitations = pgTable(
  "account_invitations",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<Exclude<MemberRole, "owner">>().notNull(),
    /** SHA-256 of the link's secret. */
    tokenHash: text("token_hash").notNull(),
    /** Who it is for, in the inviter's words (no e-mail is sent yet). */
    note: text("note"),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamptz("expires_at").notNull(),
    acceptedBy: integer("accepted_by").references(() => users.id, { onDelete: "set null" }),
    acceptedAt: timestamptz("accepted_at"),
    revokedAt: timestamptz("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("account_invitations_token_unique").on(t.tokenHash),
    index("account_invitations_account_idx").on(t.accountId, t.createdAt),
    check("account_invitations_role_check", sql`${t.role} in ('admin', 'finance', 'developer', 'viewer')`),
  ],
);

export type AccountInvitation = typeof accountInvitations.$inferSelect;
