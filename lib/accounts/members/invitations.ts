/**
 * Invitations: a link that lets whoever holds it join an account with a role, once, within 72 hours
 * (docs/design.md §24). The secret is shown to the inviter once and kept only as its SHA-256; e-mail
 * comes later, so the inviter passes the link on.
 */

import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { type AccountInvitation, accountInvitations, accountMembers, type MemberRole, type User, users } from "../../db/schema";
import { userActor } from "../audit/actor";
import { audit, byMember } from "../audit/audit-origin";
import { assignableRoleSchema } from "./manage-members";
import { membershipIn, type Principal, requirePermission } from "./principal";
import { memberRefusal } from "./reasons";

export const INVITATION_TTL_MS = 72 * 3600 * 1000;
/** Links waiting at once per account: enough for any team, not a way to fill the table. */
export const MAX_PENDING_INVITATIONS = 50;

export const createInvitationSchema = z.object({
  role: assignableRoleSchema,
  note: z.string({ error: "note must be a string" }).trim().max(200, { error: "note is at most 200 characters" }).optional(),
});
export const acceptInvitationSchema = z.object({
  token: z
    .string({ error: "token must be a string" })
    .trim()
    .min(1, { error: "token is required" })
    .max(200, { error: "token is too long" }),
});

export interface InvitationView {
  invitationId: number;
  role: Exclude<MemberRole, "owner">;
  note: string | null;
  status: "pending" | "accepted" | "revoked" | "expired";
  expiresAt: string;
  createdAt: string;
}

export function toInvitationView(row: AccountInvitation, now = new Date()): InvitationView {
  const status = row.acceptedAt ? "accepted" : row.revokedAt ? "revoked" : row.expiresAt <= now ? "expired" : "pending";
  return {
    invitationId: row.id,
    role: row.role,
    note: row.note,
    status,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new link; the answer's `url` and `token` are shown this once. */
export async function createInvitation(
  db: Db,
  principal: Principal,
  input: z.output<typeof createInvitationSchema>,
): Promise<InvitationView & { token: string; url: string }> {
  requirePermission(principal, "members");
  const now = new Date();
  const [{ pending }] = (await db
    .select({ pending: sql<number>`count(*)::int` })
    .from(accountInvitations)
    .where(
      and(
        eq(accountInvitations.accountId, principal.account.id),
        isNull(accountInvitations.acceptedAt),
        isNull(accountInvitations.revokedAt),
        gt(accountInvitations.expiresAt, now),
      ),
    )) as [{ pending: number }];
  if (pending >= MAX_PENDING_INVITATIONS)
    throw memberRefusal(
      "VALIDATION_ERROR",
      "invitation-invalid",
      `${MAX_PENDING_INVITATIONS} invitations are waiting already: revoke some, or wait until they are used or expire`,
    );
  const token = randomBytes(24).toString("base64url");
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(accountInvitations)
      .values({
        accountId: principal.account.id,
        role: input.role,
        note: input.note || null,
        tokenHash: hashToken(token),
        invitedBy: principal.member.id,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      })
      .returning();
    // biome-ignore lint/style/noNonNullAssertion: an insert … returning answers its row
    const invitation = inserted!;
    await audit(tx, byMember(principal), {
      action: "member.invited",
      target: { type: "invitation", id: invitation.id },
      after: { role: invitation.role, note: invitation.note, expiresAt: invitation.expiresAt.toISOString() },
    });
    return invitation;
  });
  return { ...toInvitationView(row, now), token, url: `${getConfig().siteUrl}/invite/${token}` };
}

export async function listInvitations(db: Db, accountId: number): Promise<InvitationView[]> {
  const rows = await db
    .select()
    .from(accountInvitations)
    .where(eq(accountInvitations.accountId, accountId))
    .orderBy(desc(accountInvitations.createdAt), desc(accountInvitations.id))
    .limit(100);
  const now = new Date();
  return rows.map((r) => toInvitationView(r, now));
}

export async function revokeInvitation(db: Db, principal: Principal, invitationId: number): Promise<InvitationView> {
  requirePermission(principal, "members");
  const row = await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(accountInvitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(accountInvitations.id, invitationId),
          eq(accountInvitations.accountId, principal.account.id),
          isNull(accountInvitations.acceptedAt),
          isNull(accountInvitations.revokedAt),
        ),
      )
      .returning();
    if (revoked)
      await audit(tx, byMember(principal), {
        action: "invitation.revoked",
        target: { type: "invitation", id: revoked.id },
        before: { role: revoked.role, note: revoked.note, invitedBy: revoked.invitedBy },
      });
    return revoked;
  });
  if (row) return toInvitationView(row);
  const [existing] = await db
    .select()
    .from(accountInvitations)
    .where(and(eq(accountInvitations.id, invitationId), eq(accountInvitations.accountId, principal.account.id)));
  if (!existing) throw memberRefusal("NOT_FOUND", "invitation-invalid", `invitation ${invitationId} not found`);
  return toInvitationView(existing); // revoked or used already: nothing changes
}

export interface InvitationPreview {
  accountId: number;
  /** The e-mail the account was opened with. */
  accountLabel: string;
  role: Exclude<MemberRole, "owner">;
  expiresAt: string;
}

/** What the link offers, for its page; a link that cannot be used says why. */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const row = await usableInvitation(db, token, new Date());
  const [account] = await db.select({ email: users.email }).from(users).where(eq(users.id, row.accountId));
  return {
    accountId: row.accountId,
    accountLabel: account?.email ?? `account ${row.accountId}`,
    role: row.role,
    expiresAt: row.expiresAt.toISOString(),
  };
}

async function usableInvitation(db: Db, token: string, now: Date): Promise<AccountInvitation> {
  const [row] = await db
    .select()
    .from(accountInvitations)
    .where(eq(accountInvitations.tokenHash, hashToken(token)));
  if (!row || row.revokedAt) throw memberRefusal("NOT_FOUND", "invitation-invalid", "this invitation link is not valid; ask for a new one");
  if (row.acceptedAt)
    throw memberRefusal("VALIDATION_ERROR", "invitation-used", "this invitation link was used already; ask for a new one");
  if (row.expiresAt <= now)
    throw memberRefusal("VALIDATION_ERROR", "invitation-expired", "this invitation link has expired; ask for a new one");
  return row;
}

/** The signed-in user joins the account with the link's role; the link works once. */
export async function acceptInvitation(
  db: Db,
  user: Pick<User, "id" | "email">,
  token: string,
  address: string | null = null,
): Promise<{ accountId: number; role: MemberRole }> {
  const userId = user.id;
  return db.transaction(async (tx) => {
    const now = new Date();
    const row = await usableInvitation(tx, token, now);
    if (await membershipIn(tx, row.accountId, userId))
      throw memberRefusal("VALIDATION_ERROR", "already-a-member", "you are a member of this account already");
    // Conditional: two people with the same link cannot both join.
    const [taken] = await tx
      .update(accountInvitations)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(and(eq(accountInvitations.id, row.id), isNull(accountInvitations.acceptedAt), isNull(accountInvitations.revokedAt)))
      .returning({ id: accountInvitations.id });
    if (!taken) throw memberRefusal("VALIDATION_ERROR", "invitation-used", "this invitation link was used already; ask for a new one");
    await tx.insert(accountMembers).values({ accountId: row.accountId, userId, role: row.role, invitedBy: row.invitedBy });
    await audit(
      tx,
      { accountId: row.accountId, actor: userActor(user), address },
      {
        action: "member.added",
        target: { type: "user", id: userId },
        after: { role: row.role, invitationId: row.id },
      },
    );
    return { accountId: row.accountId, role: row.role };
  });
}
