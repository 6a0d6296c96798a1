/**
 * GET /api/v1/payment/history: the API key's sessions, newest first, by `cursor` or by `page`
 * (lib/base/pagination.ts). Either way the read follows an index on (api_key_id[, status],
 * created_at, id) and costs the same at any depth of the history (docs/design.md §25):
 *
 * - a cursor page starts at its keyset bound;
 * - a `page` page finds its ids by offset in that index alone (an index-only scan: no session row is
 *   read for the rows it skips; past the middle, from the oldest end: offsetPlan), then reads just
 *   those rows;
 * - `meta.total` comes from the key's counters (session-tallies.ts), not from counting sessions;
 *   only an `orderId` filter counts, within that order's rows (index on api_key_id, order_id).
 */
import { and, asc, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import { encodeCursor } from "../../base/cursor";
import { type CursorPage, cursorPageOf, offsetPlan, type Page, pageOf, pagingOf } from "../../base/pagination";
import type { Db } from "../../db";
import { keysetAfter, keysetTimeText } from "../../db/keyset";
import { paymentSessions, type SessionStatus, tokens } from "../../db/schema";
import { quotesOf } from "./session-quotes";
import { expireSessionsWhere } from "./session-records";
import { sessionTotal } from "./session-tallies";
import { type SessionWithToken, toHistoryItem } from "./session-view";

export type HistoryItem = ReturnType<typeof toHistoryItem>;

/** The API key's sessions, newest first; pending sessions past expiresAt are expired first. */
export async function listPaymentHistory(
  db: Db,
  apiKeyId: number,
  query: { page: number; limit: number; status?: SessionStatus; orderId?: string; cursor?: string },
): Promise<Page<HistoryItem> | CursorPage<HistoryItem>> {
  const paging = pagingOf(query);
  // Through the partial index on (api_key_id, expires_at) of pending sessions: only the key's due ones.
  await expireSessionsWhere(db, eq(paymentSessions.apiKeyId, apiKeyId));

  const orderId = query.orderId ? query.orderId.trim() : undefined;
  const where = and(
    eq(paymentSessions.apiKeyId, apiKeyId),
    query.status ? eq(paymentSessions.status, query.status) : undefined,
    orderId !== undefined ? eq(paymentSessions.orderId, orderId) : undefined,
  );
  const total =
    orderId === undefined
      ? await sessionTotal(db, { apiKeyId }, query.status)
      : Number((await db.select({ n: count() }).from(paymentSessions).where(where))[0]?.n ?? 0);

  if (paging.by === "page") {
    const page = await pageIdsQuery(db, where, offsetPlan(paging, total));
    const rows =
      page.length === 0
        ? []
        : await historyRows(
            db,
            inArray(
              paymentSessions.id,
              page.map((r) => r.id),
            ),
            page.length,
          );
    return pageOf(await withQuotes(db, rows), total, paging);
  }
  const rows = await historyRows(
    db,
    and(where, paging.after ? keysetAfter(paymentSessions.createdAt, paymentSessions.id, paging.after) : undefined),
    paging.limit + 1,
  );
  const items = rows.slice(0, paging.limit);
  const last = items.at(-1);
  const nextCursor = rows.length > paging.limit && last ? encodeCursor({ createdAt: last.cursorAt, id: last.session.id }) : null;
  return cursorPageOf(await withQuotes(db, items), total, paging.limit, nextCursor);
}

/** The page's items, its fiat sessions with their quotes (one read, none for a page of token sessions). */
async function withQuotes(db: Db, rows: readonly SessionWithToken[]): Promise<HistoryItem[]> {
  const quotes = await quotesOf(
    db,
    rows.filter((row) => row.session.currency !== null).map((row) => row.session.id),
  );
  return rows.map((row) => toHistoryItem({ ...row, quotes: quotes.get(row.session.id) }));
}

/** The ids of one page by offset: (api_key_id[, status], created_at, id) alone, an index-only scan (tests/integration/history-scale.test.ts). */
export function pageIdsQuery(db: Db, where: SQL | undefined, plan: ReturnType<typeof offsetPlan>) {
  const order = plan.newestFirst ? desc : asc;
  return db
    .select({ id: paymentSessions.id })
    .from(paymentSessions)
    .where(where)
    .orderBy(order(paymentSessions.createdAt), order(paymentSessions.id))
    .limit(plan.limit)
    .offset(plan.offset);
}

export function historyRows(db: Db, where: SQL | undefined, limit: number) {
  return db
    .select({
      session: paymentSessions,
      token: { symbol: tokens.symbol, decimals: tokens.decimals, contractAddress: tokens.contractAddress },
      cursorAt: keysetTimeText(paymentSessions.createdAt),
    })
    .from(paymentSessions)
    .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
    .where(where)
    .orderBy(desc(paymentSessions.createdAt), desc(paymentSessions.id))
    .limit(limit);
}
