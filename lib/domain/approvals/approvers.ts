/**
 * Who can approve money out in an account (docs/design.md §24): a member whose role holds
 * `approve` and who has two-factor on (approving is confirmed with a code, decide.ts), never for
 * what they asked for themselves. With a threshold set and nobody eligible, a request waits until
 * it expires: the Approvals page says so before a threshold is saved, and on every waiting row.
 */

import { and, asc, eq, inArray } from "drizzle-orm";
import { rolesWith } from "../../accounts/members/roles";
import type { Db } from "../../db";
import { accountMembers, users } from "../../db/schema";

export interface Approvers {
  /** Hold `approve` and have two-factor on: they can approve another member's request. */
  eligible: { userId: number; email: string }[];
  /** Hold `approve` but have no two-factor yet: they could, once they turn it on. */
  withoutTwoFactor: { userId: number; email: string }[];
}

export async function accountApprovers(db: Db, accountId: number): Promise<Approvers> {
  const rows = await db
    .select({ userId: users.id, email: users.email, totpEnabledAt: users.totpEnabledAt })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(and(eq(accountMembers.accountId, accountId), inArray(accountMembers.role, rolesWith("approve"))))
    .orderBy(asc(accountMembers.createdAt), asc(users.id));
  const member = (r: (typeof rows)[number]) => ({ userId: r.userId, email: r.email });
  return {
    eligible: rows.filter((r) => r.totpEnabledAt !== null).map(member),
    withoutTwoFactor: rows.filter((r) => r.totpEnabledAt === null).map(member),
  };
}

/** Whether someone can approve a request of `requesterId` (null: a request whose requester is gone): an eligible approver other than them. */
export function someoneCanApprove(approvers: Approvers, requesterId: number | null): boolean {
  return approvers.eligible.some((a) => a.userId !== requesterId);
}
