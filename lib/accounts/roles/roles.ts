/**
 * What each role of an account may do (docs/design.md §24). A permission names an area of the product,
 * not a route: every route, page and dashboard action asks for exactly one, and the route × role
 * test (tests/integration/members-matrix.test.ts) walks them all.
 */

import type { MemberRole } from "../../db/schema";

export type { MemberRole };

export const PERMISSIONS = {
  /** See the account: payments, withdrawals, domains, tokens, keys (never their secrets), members. */
  read: "see the account",
  /** Create payment sessions and payment links, cancel a payment. */
  payments: "take payments",
  /** Withdrawals, refunds and payouts. */
  money: "send money out",
  /** CSV exports of payments, withdrawals and gas. */
  reports: "export reports",
  /** Approve or reject another member's money out. */
  approve: "approve money out",
  /** API keys, webhooks, domains and their technical settings. */
  developer: "manage API keys, webhooks and domains",
  /** Accepted tokens, the plan, the account's currency, domains' fiat rules. */
  settings: "change the account's settings",
  /** The audit log. */
  audit: "read the audit log",
  /** Invite, change and remove members; hand the ownership over. */
  members: "manage members",
  /** Where money goes and what needs approval: payout addresses, approval thresholds. */
  "payout-targets": "change payout addresses and approval rules",
} as const;

export type Permission = keyof typeof PERMISSIONS;

const ADMIN: readonly Permission[] = ["read", "payments", "money", "reports", "approve", "developer", "settings", "audit"];

export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: Object.keys(PERMISSIONS) as Permission[],
  admin: ADMIN,
  finance: ["read", "payments", "money", "reports", "approve"],
  developer: ["read", "developer"],
  viewer: ["read"],
};

export function roleAllows(role: MemberRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The roles that hold a permission, for messages ("needs owner or admin"). */
export function rolesWith(permission: Permission): MemberRole[] {
  return (Object.keys(ROLE_PERMISSIONS) as MemberRole[]).filter((role) => roleAllows(role, permission));
}

/**
 * What an owner may require two-factor of (docs/design.md §26, the account setting "members need
 * two-factor"): whoever can send money out, approve it, hold the API keys and webhooks, or choose
 * where money goes. Only a viewer is outside it.
 */
export const TWO_FACTOR_PERMISSIONS: readonly Permission[] = ["money", "approve", "developer", "payout-targets"];

export function twoFactorPolicyCovers(role: MemberRole): boolean {
  return TWO_FACTOR_PERMISSIONS.some((permission) => roleAllows(role, permission));
}

/**
 * Whether a member may only enrol in two-factor in this account: the account requires it of their
 * role and they have none. Another account of theirs that does not require it is not affected.
 */
export function heldForTwoFactor(
  account: { membersNeedTwoFactor: boolean },
  member: { totpEnabledAt: Date | null },
  role: MemberRole,
): boolean {
  return account.membersNeedTwoFactor && member.totpEnabledAt === null && twoFactorPolicyCovers(role);
}
