import { eq, sql } from "drizzle-orm";
import { prepared } from "../db/prepared";
import type { Db } from "../db";
import { paymentSessions, tokens } from "../db/schema";
import { AppError } from "../errors";
import { expireSessionsWhere } from "./expire-due";
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

export async function findSession(db: Db, sessionId: string, now = new Date()): Promise<SessionWithToken | null> {
  const found = await selectSession(db, sessionId);
  if (!found || found.session.status !== "pending" || found.session.expiresAt > now) return found;
  const [expired] = await expireIfDue(db, sessionId, now);
  // Nothing expired: something else (a payment, a cancel) changed the session meanwhile.
  return expired ? { ...found, session: expired } : selectSession(db, sessionId);
}

function selectSession(db: Db, sessionId: string): Promise<SessionWithToken | null> {
  const query = prepared(db, "session_with_token", (d) =>
    d
      .select({ session: paymentSessions, token: { symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress } })
      .from(paymentSessions)
      .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
      .where(eq(paymentSessions.id, sql.placeholder("id")))
      .prepare("session_with_token"),
  );
  return query.execute({ id: sessionId }).then((rows) => rows[0] ?? null);
}

/** pending → expired once expiresAt has passed; returns the expired row, or nothing. */
export function expireIfDue(db: Db, sessionId: string, now = new Date()) {
  return expireSessionsWhere(db, eq(paymentSessions.id, sessionId), now);
}
