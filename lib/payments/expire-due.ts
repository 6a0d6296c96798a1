import { and, eq, lte, type SQL } from "drizzle-orm";
import type { Db } from "../db";
import { type PaymentSession, paymentSessions } from "../db/schema";
import { enqueueSessionEvents } from "./session-events";
import { paymentEvents } from "./session-state";

/**
 * pending → expired for every session past expiresAt. A transfer mined in time but confirmed
 * later still completes the session afterwards (see session-state.ts).
 */
export async function expireDueSessions(db: Db, now = new Date()): Promise<number> {
  return (await expireSessionsWhere(db, undefined, now)).length;
}

/**
 * The one way a session expires — the job, and every read that finds one due — so each expiry
 * writes its payment.expired event in the same transaction, whoever noticed it first.
 */
export async function expireSessionsWhere(db: Db, scope: SQL | undefined, now = new Date()): Promise<PaymentSession[]> {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(paymentSessions)
      .set({ status: "expired", expiredAt: now, updatedAt: now })
      .where(and(eq(paymentSessions.status, "pending"), lte(paymentSessions.expiresAt, now), scope))
      .returning();
    const changes = expired.map((session) => ({ session, types: paymentEvents({ ...session, status: "pending" }, session) }));
    await enqueueSessionEvents(tx, changes, now);
    return expired;
  });
}
