/**
 * A payment link's session counts against its merchant's monthly quota only once something is paid
 * to it (DESIGN.md §21): a public page must not let strangers use up the shop's quota with sessions
 * nobody pays. Called in the transaction that records the session's first transfer. A paid session
 * counts even past the quota (money arrived; refusing to count it protects nothing): the next
 * payment/create and link Pay then find the quota used up.
 */

import { and, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db";
import { paymentSessions, sessionUsage } from "../db/schema";
import { usagePeriod } from "./current-package";

export async function countPaidLinkSessions(tx: Db, sessionIds: string[], now = new Date()): Promise<void> {
  if (sessionIds.length === 0) return;
  // Conditional: a session is counted once, however many transfers reach it and whoever records them.
  const counted = await tx
    .update(paymentSessions)
    .set({ quotaCountedAt: now })
    .where(and(inArray(paymentSessions.id, sessionIds), isNull(paymentSessions.quotaCountedAt)))
    .returning({ userId: paymentSessions.userId });
  const perUser = new Map<number, number>();
  for (const { userId } of counted) perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
  for (const [userId, sessions] of [...perUser].sort(([a], [b]) => a - b)) {
    await tx
      .insert(sessionUsage)
      .values({ userId, period: usagePeriod(now), sessions })
      .onConflictDoUpdate({
        target: [sessionUsage.userId, sessionUsage.period],
        set: { sessions: sql`${sessionUsage.sessions} + ${sessions}` },
      });
  }
}
