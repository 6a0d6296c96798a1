import { and, eq, lte } from "drizzle-orm";
import type { Db } from "../db";
import { paymentSessions } from "../db/schema";

/**
 * pending → expired for every session past expiresAt. A transfer mined in time but confirmed
 * later still completes the session afterwards (see session-state.ts).
 */
export async function expireDueSessions(db: Db, now = new Date()): Promise<number> {
  const expired = await db
    .update(paymentSessions)
    .set({ status: "expired", expiredAt: now, updatedAt: now })
    .where(and(eq(paymentSessions.status, "pending"), lte(paymentSessions.expiresAt, now)))
    .returning({ id: paymentSessions.id });
  return expired.length;
}
