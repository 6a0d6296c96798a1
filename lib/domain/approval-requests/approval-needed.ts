/**
 * Whether a money-out request must wait for a second member: above the token's per-request
 * threshold, or taking the day's money out of the token above its per-day threshold. The day is
 * the UTC day of `now`; its money out is the account's withdrawals (refund payouts excluded: the
 * refunds count them), refunds and payouts of the token that are not rejected, failed or cancelled —
 * waiting ones included, so two requests cannot each slip under the limit while both wait.
 *
 * Concurrent requests cannot slip under it together either: with a per-day limit the day's total
 * is read under a lock of the (account, token) held until the caller's transaction ends. So call
 * it in the transaction that records the request, before that transaction takes any other lock
 * (every money-out path takes this one first: no lock-order cycle with the wallet's or merchant's).
 */

import { and, eq, gte, inArray, isNull, lt, notInArray, sql, sum } from "drizzle-orm";
import type { Db } from "../../db";
import { approvalPolicies, paymentSessions, payoutBatches, refunds, withdrawals } from "../../db/schema";

export type ApprovalNeed = { needed: false } | { needed: true; why: "per-request" | "per-day"; limit: bigint; dayTotal: bigint };

export async function approvalNeeded(db: Db, accountId: number, tokenId: number, amount: bigint, now = new Date()): Promise<ApprovalNeed> {
  const [policy] = await db
    .select()
    .from(approvalPolicies)
    .where(and(eq(approvalPolicies.accountId, accountId), eq(approvalPolicies.tokenId, tokenId)));
  if (!policy) return { needed: false };
  if (policy.perRequestLimit !== null && amount > policy.perRequestLimit)
    return { needed: true, why: "per-request", limit: policy.perRequestLimit, dayTotal: 0n };
  if (policy.perDayLimit === null) return { needed: false };
  await lockDayOfToken(db, accountId, tokenId);
  const dayTotal = await moneyOutOfDay(db, accountId, tokenId, now);
  if (dayTotal + amount > policy.perDayLimit) return { needed: true, why: "per-day", limit: policy.perDayLimit, dayTotal };
  return { needed: false };
}

/**
 * Serialises the per-day decisions of one account and token until the transaction ends. The
 * two-key advisory space is this lock's alone (the job leader and migrations use one-key locks).
 */
async function lockDayOfToken(tx: Db, accountId: number, tokenId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`bsc-pay:approval-day:${accountId}`}), ${tokenId}::int)`);
}

/** The account's money out of a token on the UTC day of `now` (see the module comment). */
export async function moneyOutOfDay(db: Db, accountId: number, tokenId: number, now: Date): Promise<bigint> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(start.getTime() + 24 * 3600 * 1000);
  const [sent] = await db
    .select({ total: sum(withdrawals.amount) })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, accountId),
        eq(withdrawals.tokenId, tokenId),
        isNull(withdrawals.refundId),
        notInArray(withdrawals.status, ["rejected", "failed"]),
        gte(withdrawals.createdAt, start),
        lt(withdrawals.createdAt, end),
      ),
    );
  const [refunded] = await db
    .select({ total: sum(refunds.amount) })
    .from(refunds)
    .innerJoin(paymentSessions, eq(paymentSessions.id, refunds.sessionId))
    .where(
      and(
        eq(refunds.userId, accountId),
        eq(paymentSessions.tokenId, tokenId),
        inArray(refunds.status, ["awaiting_approval", "awaiting_address", "awaiting_funds", "sending", "completed"]),
        gte(refunds.createdAt, start),
        lt(refunds.createdAt, end),
      ),
    );
  const [paidOut] = await db
    .select({ total: sum(payoutBatches.total) })
    .from(payoutBatches)
    .where(
      and(
        eq(payoutBatches.userId, accountId),
        eq(payoutBatches.tokenId, tokenId),
        notInArray(payoutBatches.status, ["rejected", "failed"]),
        gte(payoutBatches.createdAt, start),
        lt(payoutBatches.createdAt, end),
      ),
    );
  return BigInt(sent?.total ?? 0) + BigInt(refunded?.total ?? 0) + BigInt(paidOut?.total ?? 0);
}
