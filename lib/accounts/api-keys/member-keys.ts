/**
 * What a change of membership does to the keys a member made (docs/design.md §26): removed from the
 * account, every live key they made there is revoked; given a smaller role, their keys lose the
 * scopes it lacks (a key left with none is revoked). Each runs inside the transaction that changes
 * the membership and writes the audit rows there, so both commit or neither does; the caller
 * forgets the authenticated keys (forgetAuthenticatedKeys) once it has committed.
 */

import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db";
import { apiKeys, type MemberRole } from "../../db/schema";
import { type AuditOrigin, audit } from "../audit/audit-origin";
import { API_SCOPES, effectiveScopes } from "./scopes";

function liveKeysMadeBy(accountId: number, userId: number) {
  return and(eq(apiKeys.userId, accountId), eq(apiKeys.createdBy, userId), isNull(apiKeys.revokedAt));
}

/** Revokes every live key `userId` made in the account ('member-removed'); how many. */
export async function revokeKeysMadeBy(tx: Db, accountId: number, userId: number, by: AuditOrigin): Promise<number> {
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: new Date(), revokedReason: "member-removed" })
    .where(liveKeysMadeBy(accountId, userId))
    .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, scopes: apiKeys.scopes });
  for (const key of revoked)
    await audit(tx, by, {
      action: "api_key.revoked",
      target: { type: "api_key", id: key.id },
      before: { name: key.name, prefix: key.prefix, scopes: key.scopes },
      after: { reason: "member-removed", createdBy: userId },
    });
  return revoked.length;
}

/**
 * Takes from every live key `userId` made in the account the scopes `role` does not hold; a key
 * left with none is revoked ('role-reduced'). Keys never grow back with a larger role.
 */
export async function reduceKeysMadeBy(
  tx: Db,
  accountId: number,
  userId: number,
  role: MemberRole,
  by: AuditOrigin,
): Promise<{ reduced: number; revoked: number }> {
  const keys = await tx
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(liveKeysMadeBy(accountId, userId))
    .for("update");
  const now = new Date();
  let reduced = 0;
  let revoked = 0;
  for (const key of keys) {
    const before = API_SCOPES.filter((scope) => key.scopes.includes(scope));
    const after = effectiveScopes(key.scopes, role);
    if (after.length === before.length) continue;
    const target = { type: "api_key", id: key.id };
    if (after.length === 0) {
      await tx.update(apiKeys).set({ revokedAt: now, revokedReason: "role-reduced" }).where(eq(apiKeys.id, key.id));
      await audit(tx, by, {
        action: "api_key.revoked",
        target,
        before: { name: key.name, prefix: key.prefix, scopes: before },
        after: { reason: "role-reduced", role, scopes: [] },
      });
      revoked++;
    } else {
      await tx.update(apiKeys).set({ scopes: after, scopesReducedAt: now, scopesReducedFrom: before }).where(eq(apiKeys.id, key.id));
      await audit(tx, by, {
        action: "api_key.scopes_reduced",
        target,
        before: { name: key.name, prefix: key.prefix, scopes: before },
        after: { role, scopes: after },
      });
      reduced++;
    }
  }
  return { reduced, revoked };
}

/** The live keys each member made in the account, by user id (what removing them would revoke). */
export async function liveKeysByMaker(db: Db, accountId: number, userIds: readonly number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: apiKeys.createdBy, n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, accountId), inArray(apiKeys.createdBy, [...userIds]), isNull(apiKeys.revokedAt)))
    .groupBy(apiKeys.createdBy);
  return new Map(rows.flatMap((r) => (r.userId === null ? [] : [[r.userId, Number(r.n)] as const])));
}
