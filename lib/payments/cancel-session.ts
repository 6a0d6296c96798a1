import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../db";
import { paymentSessions, type SessionStatus } from "../db/schema";
import { findSessionForKey } from "./find-session";
import { enqueueSessionEvents } from "./session-events";
import { paymentEvents } from "./session-state";

/**
 * pending → cancelled. A session that is already completed, expired or cancelled is left as it
 * is, and the answer says so with its current status.
 */
export async function cancelPaymentSession(
  db: Db,
  apiKeyId: number,
  sessionId: string,
): Promise<{ message: string; status: SessionStatus }> {
  await findSessionForKey(db, apiKeyId, sessionId); // scope + read-time expiry
  const now = new Date();
  const cancelled = await db.transaction(async (tx) => {
    const [session] = await tx
      .update(paymentSessions)
      .set({ status: "cancelled", cancelledAt: now, updatedAt: now })
      .where(and(eq(paymentSessions.id, sessionId), eq(paymentSessions.status, "pending"), gt(paymentSessions.expiresAt, now)))
      .returning();
    if (session) await enqueueSessionEvents(tx, [{ session, types: paymentEvents({ ...session, status: "pending" }, session) }], now);
    return session;
  });
  if (cancelled) return { message: "payment session cancelled", status: "cancelled" };
  const { session } = await findSessionForKey(db, apiKeyId, sessionId);
  return { message: `payment session is already ${session.status}; nothing changed`, status: session.status };
}
