import { and, desc, eq, inArray } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { type KeysetPage, type KeysetQuery, keysetBounds, reachedNewest } from "../../db/keyset";
import { approvalPolicies, chainTransactions, domains, tokens, type Withdrawal, type WithdrawalStatus, withdrawals } from "../../db/schema";
import { moneyOutOfDay } from "../approval-requests/approval-needed";
import { getOwnDomain } from "../merchant-domains/manage-domains";
import { findOwnToken } from "../tokens/find-own-token";
import { bnbBalanceOf, tokenBalanceOf } from "./wallet-balances";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

/**
 * A merchant's withdrawals from every key and the dashboard, newest first, one page by keyset
 * cursor over (user_id, created_at desc, id desc): no count of the history, a deep page costs
 * what the first does. A cursor that is not one we handed out is a VALIDATION_ERROR.
 */
export async function listUserWithdrawals(
  db: Db,
  userId: number,
  query: KeysetQuery & { status?: WithdrawalStatus },
): Promise<KeysetPage<WithdrawalView & { source: "api" | "dashboard"; domain: string; network: string }>> {
  const keyset = keysetBounds({ createdAt: withdrawals.createdAt, id: withdrawals.id }, query);
  const rows = await db
    .select({
      withdrawal: withdrawals,
      token: { symbol: tokens.symbol, decimals: tokens.decimals },
      domain: domains.origin,
      cursorTime: keyset.cursorTime,
    })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .innerJoin(domains, eq(domains.id, withdrawals.domainId))
    .where(and(eq(withdrawals.userId, userId), query.status ? eq(withdrawals.status, query.status) : undefined, keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
  const page = keyset.pageOf(rows, (r) => ({ createdAt: r.cursorTime, id: r.withdrawal.id }));
  // Newer from an older page once the newest ones are reached: show the newest full page.
  if (reachedNewest(query, page)) return listUserWithdrawals(db, userId, { limit: query.limit, status: query.status });
  return {
    ...page,
    items: page.items.map((r) => ({
      ...toWithdrawalView(r.withdrawal, r.token),
      source: r.withdrawal.apiKeyId === null ? ("dashboard" as const) : ("api" as const),
      domain: r.domain,
      network: r.withdrawal.network,
    })),
  };
}

/**
 * What the domain's wallet can send of a token now: its balance on chain minus the sends not yet
 * mined (the same reservation the send itself applies) and minus what waits for approval from it
 * (sent from this wallet once approved), and its BNB for gas. `approval`: above what a send waits
 * for a second member (docs/design.md §24) — the per-request threshold, and what is left of the
 * per-day one today (UTC); null where there is none.
 */
export async function availableToWithdraw(db: Db, userId: number, domainId: number, tokenId: number, now = new Date()) {
  const domain = await getOwnDomain(db, userId, domainId);
  const token = await findOwnToken(db, userId, tokenId);
  if (!token) throw commonRefusal("NOT_FOUND", "not-found", "token not found");
  // biome-ignore lint/style/noNonNullAssertion: addDomain sets it in the transaction that inserts the domain, so every stored domain has one
  const wallet = domain.withdrawalAddress!;
  const [balance, bnb, pending, [policy]] = await Promise.all([
    tokenBalanceOf(token.network, token, wallet, true),
    bnbBalanceOf(token.network, wallet, true),
    db
      .select({ amount: withdrawals.amount, status: withdrawals.status })
      .from(withdrawals)
      .where(
        and(
          eq(withdrawals.fromAddress, wallet),
          eq(withdrawals.tokenId, token.id),
          inArray(withdrawals.status, ["submitted", "awaiting_approval"]),
        ),
      ),
    db
      .select()
      .from(approvalPolicies)
      .where(and(eq(approvalPolicies.accountId, userId), eq(approvalPolicies.tokenId, token.id))),
  ]);
  const total = (status: WithdrawalStatus) => pending.filter((w) => w.status === status).reduce((sum, w) => sum + w.amount, 0n);
  const reserved = total("submitted");
  const awaitingApproval = total("awaiting_approval");
  const held = reserved + awaitingApproval;
  const available = balance ? (balance.units > held ? balance.units - held : 0n) : null;
  const perDayLimit = policy?.perDayLimit ?? null;
  const leftToday = perDayLimit === null ? null : perDayLimit - (await moneyOutOfDay(db, userId, token.id, now));
  return {
    wallet,
    network: token.network,
    symbol: token.symbol,
    decimals: token.decimals,
    balance: balance?.formatted ?? null,
    reserved: formatAmount(reserved, token.decimals),
    awaitingApproval: formatAmount(awaitingApproval, token.decimals),
    available: available === null ? null : formatAmount(available, token.decimals),
    bnb: bnb?.formatted ?? null,
    approval: {
      perRequest: policy?.perRequestLimit != null ? formatAmount(policy.perRequestLimit, token.decimals) : null,
      leftToday: leftToday === null ? null : formatAmount(leftToday > 0n ? leftToday : 0n, token.decimals),
    },
  };
}

/** One withdrawal of the merchant (from any key or the dashboard); another user's is NOT_FOUND. */
export async function getUserWithdrawal(db: Db, userId: number, withdrawalId: string) {
  if (!isUuid(withdrawalId)) throw commonRefusal("NOT_FOUND", "not-found", "withdrawal not found");
  const [row] = await db
    .select({ withdrawal: withdrawals, token: { symbol: tokens.symbol, decimals: tokens.decimals }, domain: domains.origin })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .innerJoin(domains, eq(domains.id, withdrawals.domainId))
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.userId, userId)));
  if (!row) throw commonRefusal("NOT_FOUND", "not-found", "withdrawal not found");
  return {
    ...toWithdrawalView(row.withdrawal, row.token),
    network: row.withdrawal.network,
    nonce: row.withdrawal.nonce,
    domain: row.domain,
    source: row.withdrawal.apiKeyId === null ? ("dashboard" as const) : ("api" as const),
    fillerTxHash: await nonceFillerHash(db, row.withdrawal),
  };
}

/** The 0-value transfer the ledger signed to fill this withdrawal's nonce, if it had to. */
async function nonceFillerHash(db: Db, withdrawal: Withdrawal): Promise<string | null> {
  if (withdrawal.nonce === null) return null;
  const [filler] = await db
    .select({ txHash: chainTransactions.txHash })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, withdrawal.network),
        eq(chainTransactions.wallet, withdrawal.fromAddress),
        eq(chainTransactions.nonce, withdrawal.nonce),
        eq(chainTransactions.kind, "cancel"),
      ),
    )
    .orderBy(desc(chainTransactions.id))
    .limit(1);
  return filler?.txHash ?? null;
}
