import { eq, sql } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { requestDb } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type PaymentSession, paymentSessions, tokens } from "../../db/schema";
import { quotesOf } from "./session-quotes";
import { expireSessionsWhere } from "./session-records";
import type { SessionWithToken, StatusViewSource } from "./session-view";

/**
 * A session with its token, scoped to the API key (another key's session is NOT_FOUND). Status
 * is exact at read time: a pending session past expiresAt is persisted as expired first.
 */
export async function findSessionForKey(db: Db, apiKeyId: number, sessionId: string): Promise<SessionWithToken> {
  return findSessionInScope(db, { apiKeyId }, sessionId);
}

/** Who may see a session: the API key that created it, or (the dashboard) its user, whatever created it. */
export type SessionScope = { apiKeyId: number } | { userId: number };

export async function findSessionInScope(db: Db, scope: SessionScope, sessionId: string): Promise<SessionWithToken> {
  const found = await findSession(db, sessionId);
  const inScope = found && ("apiKeyId" in scope ? found.session.apiKeyId === scope.apiKeyId : found.session.userId === scope.userId);
  if (!found || !inScope) throw commonRefusal("NOT_FOUND", "not-found", "payment session not found");
  return found;
}

export async function findSession(db: Db, sessionId: string, now = new Date()): Promise<SessionWithToken | null> {
  const found = await selectSession(db, sessionId);
  if (found?.session.status !== "pending" || found.session.expiresAt > now) return found;
  const [expired] = await expireIfDue(db, sessionId, now);
  // Nothing expired: something else (a payment, a cancel) changed the session meanwhile.
  return expired ? { ...found, session: expired } : selectSession(db, sessionId);
}

function selectSession(db: Db, sessionId: string): Promise<SessionWithToken | null> {
  const query = prepared(requestDb(db), "session_with_token", (d) =>
    d
      .select({
        session: paymentSessions,
        token: { symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress },
      })
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

/** What GET /payment/:id/status shows, and the key that scopes it. */
export type StatusSource = StatusViewSource & { session: Pick<PaymentSession, "apiKeyId"> };

/**
 * `findSessionForKey` for the status endpoint, reading only the columns its answer needs: it is
 * the API's most frequent call (clients poll it every few seconds per open payment).
 */
export async function findStatusForKey(db: Db, apiKeyId: number, sessionId: string, now = new Date()): Promise<StatusSource> {
  let found = await selectStatus(db, sessionId);
  if (!found || found.session.apiKeyId !== apiKeyId) throw commonRefusal("NOT_FOUND", "not-found", "payment session not found");
  if (found.session.status === "pending" && found.session.expiresAt <= now) {
    const [expired] = await expireIfDue(db, sessionId, now);
    found = expired ? { ...found, session: expired } : ((await selectStatus(db, sessionId)) ?? found);
  }
  // A fiat session's quotes: one more read, for those only (the poll of a token session costs what it did).
  if (found.session.currency !== null) return { ...found, quotes: (await quotesOf(db, [sessionId])).get(sessionId) ?? [] };
  return found;
}

function selectStatus(db: Db, sessionId: string): Promise<StatusSource | null> {
  const s = paymentSessions;
  const query = prepared(requestDb(db), "session_status", (d) =>
    d
      .select({
        session: {
          id: s.id,
          apiKeyId: s.apiKeyId,
          status: s.status,
          amount: s.amount,
          receivedAmount: s.receivedAmount,
          txHash: s.txHash,
          expiresAt: s.expiresAt,
          overpaid: s.overpaid,
          late: s.late,
          lateAmount: s.lateAmount,
          description: s.description,
          orderId: s.orderId,
          currency: s.currency,
          fiatAmount: s.fiatAmount,
          rate: s.rate,
          rateSource: s.rateSource,
          ratedAt: s.ratedAt,
        },
        token: { symbol: tokens.symbol, decimals: tokens.decimals },
      })
      .from(s)
      .innerJoin(tokens, eq(tokens.id, s.tokenId))
      .where(eq(s.id, sql.placeholder("id")))
      .prepare("session_status"),
  );
  return query.execute({ id: sessionId }).then((rows) => rows[0] ?? null);
}
