import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../db";
import { paymentSessions, tokens } from "../db/schema";
import { AppError } from "../errors";
import type { SessionWithToken } from "./session-view";

/**
 * A session with its token, scoped to the API key (another key's session is NOT_FOUND). Status
 * is exact at read time: a pending session past expiresAt is persisted as expired first.
 */
export async function findSessionForKey(db: Db, apiKeyId: number, sessionId: string): Promise<SessionWithToken> {
  const found = await findSession(db, sessionId);
  if (!found || found.session.apiKeyId !== apiKeyId) throw new AppError("NOT_FOUND", "payment session not found");
  return found;
}

export async function findSession(db: Db, sessionId: string): Promise<SessionWithToken | null> {
  await expireIfDue(db, sessionId);
  const [row] = await db
    .select({ session: paymentSessions, token: { symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress } })
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(eq(paymentSessions.id, sessionId));
  return row ?? null;
}

/** pending → expired once expiresAt has passed; a no-op (no row matches) otherwise. */
export async function expireIfDue(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db
    .update(paymentSessions)
    .set({ status: "expired", expiredAt: sql`${paymentSessions.expiresAt}`, updatedAt: now })
    .where(and(eq(paymentSessions.id, sessionId), eq(paymentSessions.status, "pending"), lte(paymentSessions.expiresAt, now)));
}
