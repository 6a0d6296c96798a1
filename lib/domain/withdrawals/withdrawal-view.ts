import { and, count, desc, eq } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import { offsetOf, type Page, pageOf } from "../../base/pagination";
import type { Db } from "../../db";
import { tokens, type Withdrawal, type WithdrawalStatus, withdrawals } from "../../db/schema";

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

export async function listWithdrawals(
  db: Db,
  apiKeyId: number,
  query: { page: number; limit: number; status?: WithdrawalStatus },
): Promise<Page<WithdrawalView>> {
  const where = and(eq(withdrawals.apiKeyId, apiKeyId), query.status ? eq(withdrawals.status, query.status) : undefined);
  const [totalRow] = await db.select({ total: count() }).from(withdrawals).where(where);
  const rows = await db
    .select({ withdrawal: withdrawals, token: { symbol: tokens.symbol, decimals: tokens.decimals } })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .where(where)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(query.limit)
    .offset(offsetOf(query));
  return pageOf(
    rows.map((r) => toWithdrawalView(r.withdrawal, r.token)),
    Number(totalRow?.total ?? 0),
    query,
  );
}
