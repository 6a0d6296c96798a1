/**
 * An account's members: who they are, their roles, and the owner's changes to them (DESIGN.md §24).
 * The owner is fixed until they hand the ownership to another member; nobody else becomes owner.
 */

import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db";
import { accountMembers, MEMBER_ROLES, type MemberRole, users } from "../../db/schema";
import { audit, byMember } from "../audit/audit-origin";
import { requireSecondFactor } from "../users/two-factor";
import { membershipIn, type Principal, requirePermission } from "./principal";
import { memberRefusal } from "./reasons";

export interface MemberView {
  userId: number;
  email: string;
  role: MemberRole;
  twoFactor: boolean;
  joinedAt: string;
}

/** A role a member can be given; the owner's is handed over, never given. */
export const assignableRoleSchema = z.enum(MEMBER_ROLES.filter((r) => r !== "owner") as ["admin", "finance", "developer", "viewer"], {
  error: "role must be one of admin, finance, developer, viewer",
});
export const changeRoleSchema = z.object({ role: assignableRoleSchema });
export const transferOwnershipSchema = z.object({
  userId: z.number({ error: "userId must be a member's user id" }).int().positive(),
  code: z.string().trim().max(32).optional(),
});

export async function listMembers(db: Db, accountId: number): Promise<MemberView[]> {
  const rows = await db
    .select({
      userId: accountMembers.userId,
      email: users.email,
      role: accountMembers.role,
      totpEnabledAt: users.totpEnabledAt,
      joinedAt: accountMembers.createdAt,
    })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(eq(accountMembers.accountId, accountId))
    .orderBy(asc(accountMembers.createdAt), asc(accountMembers.userId));
  return rows.map((r) => ({
    userId: r.userId,
    email: r.email,
    role: r.role,
    twoFactor: r.totpEnabledAt !== null,
    joinedAt: r.joinedAt.toISOString(),
  }));
}

/** The member of the account, or NOT_FOUND (another account's user is not found either). */
async function memberOf(db: Db, accountId: number, userId: number) {
  const member = await membershipIn(db, accountId, userId);
  if (!member) throw memberRefusal("NOT_FOUND", "member-not-found", `user ${userId} is not a member of this account`);
  return member;
}

export async function changeMemberRole(
  db: Db,
  principal: Principal,
  userId: number,
  role: Exclude<MemberRole, "owner">,
): Promise<MemberView> {
  requirePermission(principal, "members");
  const before = await memberOf(db, principal.account.id, userId);
  if (before.role === "owner")
    throw memberRefusal("VALIDATION_ERROR", "owner-is-fixed", "the owner's role does not change: hand the ownership over first");
  await db.transaction(async (tx) => {
    await tx
      .update(accountMembers)
      .set({ role, updatedAt: new Date() })
      .where(and(eq(accountMembers.accountId, principal.account.id), eq(accountMembers.userId, userId), ne(accountMembers.role, "owner")));
    await audit(tx, byMember(principal), {
      action: "member.role_changed",
      target: { type: "user", id: userId },
      before: { role: before.role },
      after: { role },
    });
  });
  return requireMember(db, principal.account.id, userId);
}

export async function removeMember(db: Db, principal: Principal, userId: number): Promise<{ userId: number; role: MemberRole }> {
  requirePermission(principal, "members");
  const before = await memberOf(db, principal.account.id, userId);
  if (before.role === "owner")
    throw memberRefusal("VALIDATION_ERROR", "owner-is-fixed", "the owner cannot be removed: hand the ownership over first");
  await db.transaction(async (tx) => {
    await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, principal.account.id), eq(accountMembers.userId, userId), ne(accountMembers.role, "owner")));
    await audit(tx, byMember(principal), { action: "member.removed", target: { type: "user", id: userId }, before: { role: before.role } });
  });
  return { userId, role: before.role };
}

/**
 * The owner hands the account to another member, who must have two-factor on (the owner alone
 * changes where money goes); the owner's own code confirms it. The old owner stays, as admin.
 */
export async function transferOwnership(db: Db, principal: Principal, userId: number, code: string | undefined): Promise<MemberView[]> {
  requirePermission(principal, "members");
  if (principal.role !== "owner") throw memberRefusal("FORBIDDEN", "role-forbids", "only the owner hands the ownership over");
  if (userId === principal.member.id) throw memberRefusal("VALIDATION_ERROR", "owner-is-fixed", "you are the owner already");
  await memberOf(db, principal.account.id, userId);
  const [next] = await db.select().from(users).where(eq(users.id, userId));
  if (!next?.totpEnabledAt)
    throw memberRefusal("VALIDATION_ERROR", "new-owner-needs-two-factor", "the new owner must turn two-factor authentication on first");
  await requireSecondFactor(db, principal.member, code);
  await db.transaction(async (tx) => {
    const now = new Date();
    // The old owner steps down first: one owner per account (a unique index) at every moment.
    await tx
      .update(accountMembers)
      .set({ role: "admin", updatedAt: now })
      .where(
        and(
          eq(accountMembers.accountId, principal.account.id),
          eq(accountMembers.userId, principal.member.id),
          eq(accountMembers.role, "owner"),
        ),
      );
    const [promoted] = await tx
      .update(accountMembers)
      .set({ role: "owner", updatedAt: now })
      .where(and(eq(accountMembers.accountId, principal.account.id), eq(accountMembers.userId, userId)))
      .returning({ userId: accountMembers.userId });
    // Removed meanwhile: roll the step-down back rather than leave the account without an owner.
    if (!promoted) throw memberRefusal("NOT_FOUND", "member-not-found", `user ${userId} is not a member of this account`);
    await audit(tx, byMember(principal), {
      action: "member.role_changed",
      target: { type: "user", id: principal.member.id },
      before: { role: "owner" },
      after: { role: "admin" },
    });
    await audit(tx, byMember(principal), { action: "member.role_changed", target: { type: "user", id: userId }, after: { role: "owner" } });
  });
  return listMembers(db, principal.account.id);
}

async function requireMember(db: Db, accountId: number, userId: number): Promise<MemberView> {
  const found = (await listMembers(db, accountId)).find((m) => m.userId === userId);
  if (!found) throw memberRefusal("NOT_FOUND", "member-not-found", `user ${userId} is not a member of this account`);
  return found;
}

export interface AccountChoice {
  accountId: number;
  /** The e-mail the account was opened with. */
  label: string;
  role: MemberRole;
}

/** The accounts a user belongs to, home first, for the switcher and GET /api/user/accounts. */
export async function listUserAccounts(db: Db, userId: number): Promise<AccountChoice[]> {
  const rows = await db
    .select({ accountId: accountMembers.accountId, label: users.email, role: accountMembers.role })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.accountId))
    .where(eq(accountMembers.userId, userId))
    .orderBy(asc(accountMembers.createdAt), asc(accountMembers.accountId));
  return [...rows.filter((r) => r.accountId === userId), ...rows.filter((r) => r.accountId !== userId)];
}
