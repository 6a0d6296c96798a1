import { and, count, desc, eq } from "drizzle-orm";
import { offsetOf, type Page, pageOf } from "../../base/pagination";
import type { Db } from "../../db";
import { paymentSessions, type SessionStatus, tokens } from "../../db/schema";
import { expireSessionsWhere } from "./session-records";
import { toHistoryItem } from "./session-view";

/** The API key's sessions, newest first; pending sessions past expiresAt are expired first. */
export async function listPaymentHistory(
  db: Db,
  apiKeyId: number,
  query: { page: number; limit: number; status?: SessionStatus; orderId?: string },
): Promise<Page<ReturnType<typeof toHistoryItem>>> {
  await expireSessionsWhere(db, eq(paymentSessions.apiKeyId, apiKeyId));

  const where = and(
    eq(paymentSessions.apiKeyId, apiKeyId),
    query.status ? eq(paymentSessions.status, query.status) : undefined,
    query.orderId ? eq(paymentSessions.orderId, query.orderId.trim()) : undefined,
  );
  const [totalRow] = await db.select({ total: count() }).from(paymentSessions).where(where);
  const rows = await db
    .select({
      session: paymentSessions,
      token: { symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress },
    })
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(where)
    .orderBy(desc(paymentSessions.createdAt), desc(paymentSessions.id))
    .limit(query.limit)
    .offset(offsetOf(query));
  return pageOf(rows.map(toHistoryItem), Number(totalRow?.total ?? 0), query);
}
