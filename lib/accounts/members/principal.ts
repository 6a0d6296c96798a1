/**
 * Who acts and on what: the signed-in user (the member), the account chosen for the request, and
 * the member's role in it. Every /api/user route, dashboard page and dashboard action gets one from
 * its edge (lib/web/http) and hands `account.id` to lib as the owner of the data, and `member` to
 * whatever concerns the person: two-factor codes, the audit log's actor, an approval's maker.
 */

import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { type AccountMember, accountMembers, type MemberRole, type User, users } from "../../db/schema";
import { heldForTwoFactor, PERMISSIONS, type Permission, roleAllows, rolesWith } from "../roles/roles";
import { accountRefusal } from "../users/reasons";
import { memberRefusal } from "./reasons";

export interface Principal {
  /** The account's row: the owner of every record the request reads or writes (`user_id` columns). */
  account: User;
  /** The signed-in user. */
  member: User;
  role: MemberRole;
  /** The client's address, for the audit log (null outside a request: the CLI, tests). */
  address: string | null;
  /**
   * The account requires two-factor of this member's role and they have none (docs/design.md §26): in
   * this account they may only enrol. Every door refuses them (requirePermission does too).
   */
  enrolOnly: boolean;
}

/** What a lib function that both owns data and checks the person's two-factor needs of a principal. */
export type Acting = Pick<Principal, "account" | "member"> & { address?: string | null };

/**
 * The member's principal in the account asked for, or in the user's default account: the home
 * account (their own row) while they are still a member of it, else the one they joined first.
 * An account the user is not a member of is FORBIDDEN, whether or not it exists.
 */
export async function resolvePrincipal(
  db: Db,
  member: User,
  requestedAccountId: number | null,
  address: string | null = null,
): Promise<Principal> {
  const membership =
    requestedAccountId === null ? await defaultMembership(db, member.id) : await membershipIn(db, requestedAccountId, member.id);
  if (!membership) {
    if (requestedAccountId !== null)
      throw memberRefusal("FORBIDDEN", "not-a-member", `you are not a member of account ${requestedAccountId}`);
    throw memberRefusal("FORBIDDEN", "no-account", "you are not a member of any account; ask an owner for an invitation");
  }
  const account =
    membership.accountId === member.id ? member : (await db.select().from(users).where(eq(users.id, membership.accountId)))[0];
  if (!account) throw memberRefusal("FORBIDDEN", "not-a-member", `you are not a member of account ${membership.accountId}`);
  return { account, member, role: membership.role, address, enrolOnly: heldForTwoFactor(account, member, membership.role) };
}

export async function membershipIn(db: Db, accountId: number, userId: number): Promise<AccountMember | null> {
  const [row] = await db
    .select()
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)));
  return row ?? null;
}

async function defaultMembership(db: Db, userId: number): Promise<AccountMember | null> {
  const home = await membershipIn(db, userId, userId);
  if (home) return home;
  const [first] = await db
    .select()
    .from(accountMembers)
    .where(eq(accountMembers.userId, userId))
    .orderBy(asc(accountMembers.createdAt), asc(accountMembers.accountId))
    .limit(1);
  return first ?? null;
}

/** FORBIDDEN unless the member's role holds the permission and the account does not hold them to enrolling in two-factor first. */
export function requirePermission(principal: Pick<Principal, "role"> & { enrolOnly?: boolean }, permission: Permission): void {
  if (principal.enrolOnly) throw enrolFirst();
  if (roleAllows(principal.role, permission)) return;
  throw memberRefusal(
    "FORBIDDEN",
    "role-forbids",
    `your role (${principal.role}) cannot ${PERMISSIONS[permission]}; it needs ${rolesWith(permission).join(" or ")}`,
  );
}

/** FORBIDDEN `two-factor-required-by-account`: what every door answers a member held to enrolling. */
export function enrolFirst() {
  return accountRefusal(
    "FORBIDDEN",
    "two-factor-required-by-account",
    "this account requires two-factor authentication of your role: turn it on (dashboard Settings, or POST /api/user/two-factor) — until then you can only enrol, and the API keys you made are refused",
  );
}

/** The X-Account-Id header or the dashboard's account cookie: a positive integer, or VALIDATION_ERROR. */
export function parseAccountId(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw === "") return null;
  const id = /^[1-9][0-9]{0,9}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647)
    throw memberRefusal("VALIDATION_ERROR", "account-id-invalid", "X-Account-Id must be an account's id (a positive integer)", [
      { path: "X-Account-Id", message: "must be a positive integer" },
    ]);
  return id;
}

/** A user acting as the owner of their home account: the operator's CLI, benchmarks and tests of single-user flows. */
export function asOwner(user: User): Principal {
  return { account: user, member: user, role: "owner", address: null, enrolOnly: heldForTwoFactor(user, user, "owner") };
}
