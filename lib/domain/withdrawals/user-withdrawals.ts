import { and, desc, eq } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import { offsetOf, type Page, pageOf } from "../../base/pagination";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { chainTransactions, domains, tokens, type Withdrawal, type WithdrawalStatus, withdrawals } from "../../db/schema";
import { getOwnDomain } from "../domains/manage-domains";
import { withdrawalTotal } from "../payouts/withdrawal-tallies";
import { findOwnToken } from "../tokens/find-own-token";
import { bnbBalanceOf, tokenBalanceOf } from "./wallet-balances";
import { toWithdrawalView, type WithdrawalView } from "./withdrawal-view";

/** A merchant's withdrawals from every key and the dashboard, newest first. */
export async function listUserWithdrawals(
  db: Db,
  userId: number,
  query: { page: number; limit: number; status?: WithdrawalStatus },
): Promise<Page<WithdrawalView & { source: "api" | "dashboard"; domain: string; network: string }>> {
  const where = and(eq(withdrawals.userId, userId), query.status ? eq(withdrawals.status, query.status) : undefined);
  // From the counters kept by every insert and settlement: never a count over the history.
  const total = await withdrawalTotal(db, { userId }, query.status);
  const rows = await db
    .select({ withdrawal: withdrawals, token: { symbol: tokens.symbol, decimals: tokens.decimals }, domain: domains.origin })
    .from(withdrawals)
    .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
    .innerJoin(domains, eq(domains.id, withdrawals.domainId))
    .where(where)
    .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
    .limit(query.limit)
    .offset(offsetOf(query));
  return pageOf(
    rows.map((r) => ({
      ...toWithdrawalView(r.withdrawal, r.token),
      source: r.withdrawal.apiKeyId === null ? ("dashboard" as const) : ("api" as const),
      domain: r.domain,
      network: r.withdrawal.network,
    })),
    total,
    query,
  );
}

/**
 * What the domain's wallet can send of a token now: its balance on chain minus the sends not yet
 * mined (the same reservation the send itself applies), and its BNB for gas.
 */
export async function availableToWithdraw(db: Db, userId: number, domainId: number, tokenId: number) {
  const domain = await getOwnDomain(db, userId, domainId);
  const token = await findOwnToken(db, userId, tokenId);
  if (!token) throw commonRefusal("NOT_FOUND", "not-found", "token not found");
  // biome-ignore lint/style/noNonNullAssertion: addDomain sets it in the transaction that inserts the domain, so every stored domain has one
  const wallet = domain.withdrawalAddress!;
  const [balance, bnb, pending] = await Promise.all([
    tokenBalanceOf(token.network, token, wallet, true),
    bnbBalanceOf(token.network, wallet, true),
    db
      .select({ amount: withdrawals.amount })
      .from(withdrawals)
      .where(and(eq(withdrawals.fromAddress, wallet), eq(withdrawals.tokenId, token.id), eq(withdrawals.status, "submitted"))),
  ]);
  const reserved = pending.reduce((sum, w) => sum + w.amount, 0n);
  const available = balance ? (balance.units > reserved ? balance.units - reserved : 0n) : null;
  return {
    wallet,
    network: token.network,
    symbol: token.symbol,
    decimals: token.decimals,
    balance: balance?.formatted ?? null,
    reserved: formatAmount(reserved, token.decimals),
    available: available === null ? null : formatAmount(available, token.decimals),
    bnb: bnb?.formatted ?? null,
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
