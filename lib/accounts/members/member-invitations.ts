/**
 * An invitation speaks for the member who made it (docs/design.md §26): when they leave the account or
 * hand the ownership over, the links they made and that nobody used yet stop working. Runs inside
 * the transaction of that change, with its audit rows.
 */

import { and, count, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db";
import { accountInvitations } from "../../db/schema";
import { type AuditOrigin, audit } from "../audit/audit-origin";

function openInvitationsBy(accountId: number, userId: number, now: Date) {
  return and(
    eq(accountInvitations.accountId, accountId),
    eq(accountInvitations.invitedBy, userId),
    isNull(accountInvitations.acceptedAt),
    isNull(accountInvitations.revokedAt),
    gt(accountInvitations.expiresAt, now),
  );
}

/** Revokes the open invitations `userId` made in the account, each audited with `why`; how many. */
export async function revokeInvitationsMadeBy(
  tx: Db,
  accountId: number,
  userId: number,
  by: AuditOrigin,
  why: "member-removed" | "ownership-handed-over",
): Promise<number> {
  const now = new Date();
  const revoked = await tx
    .update(accountInvitations)
    .set({ revokedAt: now })
    .where(openInvitationsBy(accountId, userId, now))
    .returning({ id: accountInvitations.id, role: accountInvitations.role, note: accountInvitations.note });
  for (const invitation of revoked)
    await audit(tx, by, {
      action: "invitation.revoked",
      target: { type: "invitation", id: invitation.id },
      before: { role: invitation.role, note: invitation.note, invitedBy: userId },
      after: { reason: why },
    });
  return revoked.length;
}

/** The open invitations each member made in the account, by user id (what removing them would revoke). */
export async function openInvitationsByMaker(db: Db, accountId: number, userIds: readonly number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const now = new Date();
  const rows = await db
    .select({ userId: accountInvitations.invitedBy, n: count() })
    .from(accountInvitations)
    .where(
      and(
        eq(accountInvitations.accountId, accountId),
        inArray(accountInvitations.invitedBy, [...userIds]),
        isNull(accountInvitations.acceptedAt),
        isNull(accountInvitations.revokedAt),
        gt(accountInvitations.expiresAt, now),
      ),
    )
    .groupBy(accountInvitations.invitedBy);
  return new Map(rows.flatMap((r) => (r.userId === null ? [] : [[r.userId, Number(r.n)] as const])));
}
