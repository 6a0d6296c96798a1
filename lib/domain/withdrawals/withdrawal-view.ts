import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import { encodeCursor } from "../../base/cursor";
import { commonRefusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import { type CursorPage, cursorPageOf, offsetPlan, type Page, pageOf, pagingOf } from "../../base/pagination";
import type { Db } from "../../db";
import { keysetAfter, keysetTimeText } from "../../db/keyset";
import { tokens, type Withdrawal, type WithdrawalStatus, withdrawals } from "../../db/schema";
import { withdrawalTotal } from "../transfers/withdrawal-tallies";

export function toWithdrawalView(withdrawal: Withdrawal, token: { symbol: string; decimals: number }) {
  return {
    withdrawalId: withdrawal.id,
    txHash: withdrawal.txHash,
    amount: formatAmount(withdrawal.amount, token.decimals),
    token: token.symbol,
    toAddress: withdrawal.toAddress,
    status: withdrawal.status,
    domainId: withdrawal.domainId,
    fromAddress: withdrawal.fromAddress,
    createdAt: withdrawal.createdAt.toISOString(),
    confirmedAt: withdrawal.confirmedAt?.toISOString() ?? null,
    failureReason: withdrawal.failureReason,
    // A refund's payout is a withdrawal too: a shop that books withdrawals must not count it twice.
    refundId: withdrawal.refundId,
  };
}

export type WithdrawalView = ReturnType<typeof toWithdrawalView>;

/** One withdrawal of this API key; another key's is NOT_FOUND. */
export async function getWithdrawal(db: Db, apiKeyId: number, withdrawalId: string): Promise<WithdrawalView> {
  const [row] = await db
    .select({ withdrawal: withdrawals, token: { symbol: tokens.symbol, decimals: tokens.decimals } })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.apiKeyId, apiKeyId)));
  if (!row) throw commonRefusal("NOT_FOUND", "not-found", "withdrawal not found");
  return toWithdrawalView(row.withdrawal, row.token);
}

/**
 * GET /api/v1/withdrawal/history: the key's withdrawals, newest first, by `cursor` or by `page`, as
 * the payment history pages (lib/domain/payments/list-history.ts): ids by offset from the index on
 * (api_key_id[, status], created_at, id), the total from the key's counters.
 */
export async function listWithdrawals(
  db: Db,
  apiKeyId: number,
  query: { page: number; limit: number; status?: WithdrawalStatus; cursor?: string },
): Promise<Page<WithdrawalView> | CursorPage<WithdrawalView>> {
  const paging = pagingOf(query);
  const where = and(eq(withdrawals.apiKeyId, apiKeyId), query.status ? eq(withdrawals.status, query.status) : undefined);
  const total = await withdrawalTotal(db, { apiKeyId }, query.status);
  if (paging.by === "page") {
    const plan = offsetPlan(paging, total);
    const order = plan.newestFirst ? desc : asc;
    const page = await db
      .select({ id: withdrawals.id })
      .from(withdrawals)
      .where(where)
      .orderBy(order(withdrawals.createdAt), order(withdrawals.id))
      .limit(plan.limit)
      .offset(plan.offset);
    const rows =
      page.length === 0
        ? []
        : await withdrawalRows(
            db,
            inArray(
              withdrawals.id,
              page.map((r) => r.id),
            ),
            page.length,
          );
    return pageOf(
      rows.map((r) => toWithdrawalView(r.withdrawal, r.token)),
      total,
      paging,
    );
  }
  const rows = await withdrawalRows(
    db,
    and(where, paging.after ? keysetAfter(withdrawals.createdAt, withdrawals.id, paging.after) : undefined),
    paging.limit + 1,
  );
  const items = rows.slice(0, paging.limit);
  const last = items.at(-1);
  const nextCursor = rows.length > paging.limit && last ? encodeCursor({ createdAt: last.cursorAt, id: last.withdrawal.id }) : null;
  return cursorPageOf(
    items.map((r) => toWithdrawalView(r.withdrawal, r.token)),
    total,
    paging.limit,
    nextCursor,
  );
}

function withdrawalRows(db: Db, where: SQL | undefined, limit: number) {
  return db
    .select({
      withdrawal: withdrawals,
      token: { symbol: tokens.symbol, decimals: tokens.decimals },
      cursorAt: keysetTimeText(withdrawals.createdAt),
    })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .where(where)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(limit);
}
