/**
 * An account's members: who they are, their roles, and the owner's changes to them (docs/design.md §24).
 * The owner is fixed until they hand the ownership to another member; nobody else becomes owner.
 *
 * What a member made goes with their membership (§26): removed, every API key they made in the
 * account is revoked and their open invitations with it; given a smaller role, their keys lose the
 * scopes it lacks; handing the ownership over revokes the old owner's open invitations. All of it
 * commits with the change, audited, and authenticated keys are forgotten once it has: no request
 * with such a key that arrives after the change succeeds on this instance. Every change first
 * takes the account's row lock, as issueApiKey does, so a key cannot be made beside it.
 */

import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db";
import { accountMembers, MEMBER_ROLES, type MemberRole, users } from "../../db/schema";
import { forgetAuthenticatedKeys } from "../api-keys/authenticate-api-key";
import { liveKeysByMaker, reduceKeysMadeBy, revokeKeysMadeBy } from "../api-keys/member-keys";
import { audit, byMember } from "../audit/audit-origin";
import { requireSecondFactor } from "../users/two-factor";
import { openInvitationsByMaker, revokeInvitationsMadeBy } from "./member-invitations";
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
    await lockAccount(tx, principal.account.id);
    const [changed] = await tx
      .update(accountMembers)
      .set({ role, updatedAt: new Date() })
      .where(and(eq(accountMembers.accountId, principal.account.id), eq(accountMembers.userId, userId), ne(accountMembers.role, "owner")))
      .returning({ userId: accountMembers.userId });
    if (!changed) throw memberRefusal("NOT_FOUND", "member-not-found", `user ${userId} is not a member of this account`);
    await audit(tx, byMember(principal), {
      action: "member.role_changed",
      target: { type: "user", id: userId },
      before: { role: before.role },
      after: { role },
    });
    await reduceKeysMadeBy(tx, principal.account.id, userId, role, byMember(principal));
  });
  forgetAuthenticatedKeys();
  return requireMember(db, principal.account.id, userId);
}

/** What removing a member takes with them, as the removal reports it and the members page warns of it. */
export interface RemovalEffects {
  apiKeysRevoked: number;
  invitationsRevoked: number;
}

export async function removeMember(
  db: Db,
  principal: Principal,
  userId: number,
): Promise<{ userId: number; role: MemberRole } & RemovalEffects> {
  requirePermission(principal, "members");
  const before = await memberOf(db, principal.account.id, userId);
  if (before.role === "owner")
    throw memberRefusal("VALIDATION_ERROR", "owner-is-fixed", "the owner cannot be removed: hand the ownership over first");
  const by = byMember(principal);
  const effects = await db.transaction(async (tx) => {
    await lockAccount(tx, principal.account.id);
    const [removed] = await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, principal.account.id), eq(accountMembers.userId, userId), ne(accountMembers.role, "owner")))
      .returning({ userId: accountMembers.userId });
    if (!removed) throw memberRefusal("NOT_FOUND", "member-not-found", `user ${userId} is not a member of this account`);
    await audit(tx, by, { action: "member.removed", target: { type: "user", id: userId }, before: { role: before.role } });
    return {
      apiKeysRevoked: await revokeKeysMadeBy(tx, principal.account.id, userId, by),
      invitationsRevoked: await revokeInvitationsMadeBy(tx, principal.account.id, userId, by, "member-removed"),
    };
  });
  forgetAuthenticatedKeys();
  return { userId, role: before.role, ...effects };
}

/** For each member, what removing them would revoke now (the members page says it before it is done). */
export async function removalEffects(db: Db, accountId: number, userIds: readonly number[]): Promise<Map<number, RemovalEffects>> {
  const [keys, invitations] = await Promise.all([liveKeysByMaker(db, accountId, userIds), openInvitationsByMaker(db, accountId, userIds)]);
  return new Map(userIds.map((id) => [id, { apiKeysRevoked: keys.get(id) ?? 0, invitationsRevoked: invitations.get(id) ?? 0 }]));
}

/** Member changes and key creation of one account take turns (issueApiKey takes the same lock first). */
async function lockAccount(tx: Db, accountId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for("no key update");
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
  const by = byMember(principal);
  await db.transaction(async (tx) => {
    await lockAccount(tx, principal.account.id);
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
    // Admin holds every scope a key may have today; reduced all the same, should the roles change.
    await reduceKeysMadeBy(tx, principal.account.id, principal.member.id, "admin", by);
    await revokeInvitationsMadeBy(tx, principal.account.id, principal.member.id, by, "ownership-handed-over");
  });
  forgetAuthenticatedKeys();
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
