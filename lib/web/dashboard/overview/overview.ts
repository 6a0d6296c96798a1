import { and, count, eq, gte, isNull, sql } from "drizzle-orm";
import { formatAmount } from "../../../base/money";
import type { Db } from "../../../db";
import { apiKeys, domains, forwards, paymentDayTotals, paymentSessions, type SessionStatus, tokens } from "../../../db/schema";
import { sessionCountsOfUser } from "../../../domain/payments/session-tallies";
import { activeSubscription } from "../../../domain/plans/current-plan";
import { bnbBalanceOf, tokenBalanceOf } from "../../../domain/withdrawals/wallet-balances";
import { listNetworks } from "../../../engine/chain/networks";
import { serviceAddresses } from "../../../engine/chain/wallet-addresses";
import { listUserPayments } from "../payments/user-payments";

/** Below this a gas tank is shown as low on the overview (the same bound as /api/health). */
const GAS_TANK_LOW_WEI = 5_000_000_000_000_000n;

export interface VolumePoint {
  day: string;
  /** Decimal strings per token symbol (exact); the chart converts them for drawing only. */
  [symbol: string]: string;
}

/** Completed volume per UTC day and token, from the day totals kept as payments complete (never the sessions grouped). */
export async function volumeByDay(db: Db, userId: number, days: 7 | 30, now = new Date()) {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const rows = await db
    .select({
      day: paymentDayTotals.day,
      symbol: tokens.symbol,
      decimals: tokens.decimals,
      total: sql<string>`sum(${paymentDayTotals.received})`,
    })
    .from(paymentDayTotals)
    .innerJoin(tokens, eq(tokens.id, paymentDayTotals.tokenId))
    .where(
      and(
        eq(paymentDayTotals.userId, userId),
        eq(paymentDayTotals.status, "completed"),
        gte(paymentDayTotals.day, since.toISOString().slice(0, 10)),
      ),
    )
    .groupBy(paymentDayTotals.day, tokens.symbol, tokens.decimals);
  const symbols = [...new Set(rows.map((r) => r.symbol))].sort();
  const points: VolumePoint[] = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const point: VolumePoint = { day };
    for (const symbol of symbols) point[symbol] = "0";
    points.push(point);
  }
  const totals = new Map<string, bigint>();
  for (const r of rows) {
    const point = points.find((p) => p.day === r.day);
    const units = BigInt(r.total);
    if (point) point[r.symbol] = formatAmount(units, r.decimals);
    totals.set(r.symbol, (totals.get(r.symbol) ?? 0n) + units);
  }
  const decimalsOf = new Map(rows.map((r) => [r.symbol, r.decimals]));
  // biome-ignore lint/style/noNonNullAssertion: symbols are the symbols of rows, and decimalsOf has an entry for the symbol of every row
  return { points, symbols, totals: symbols.map((s) => ({ symbol: s, total: formatAmount(totals.get(s) ?? 0n, decimalsOf.get(s)!) })) };
}

/** The user's sessions by status, from the counters kept by every write (never a count of the sessions). */
export async function paymentsByStatus(db: Db, userId: number): Promise<Record<SessionStatus, number>> {
  return sessionCountsOfUser(db, userId);
}

/** The first-run checklist: plan → token → domain → API key → first payment. */
export async function onboarding(db: Db, userId: number) {
  const [plan, [token], [domain], [key], [payment]] = await Promise.all([
    activeSubscription(db, userId),
    db.select({ id: tokens.id }).from(tokens).where(eq(tokens.userId, userId)).limit(1),
    db
      .select({ id: domains.id })
      .from(domains)
      .where(and(eq(domains.userId, userId), isNull(domains.deletedAt)))
      .limit(1),
    db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .limit(1),
    db.select({ id: paymentSessions.id }).from(paymentSessions).where(eq(paymentSessions.userId, userId)).limit(1),
  ]);
  const steps = [
    { id: "plan", label: "Choose a plan", href: "/dashboard/plan", done: plan !== null },
    { id: "token", label: "Register a token", href: "/dashboard/tokens", done: token !== undefined },
    { id: "domain", label: "Whitelist your shop's domain", href: "/dashboard/domains", done: domain !== undefined },
    { id: "api-key", label: "Create an API key", href: "/dashboard/api-keys", done: key !== undefined },
    { id: "payment", label: "Create your first payment", href: "/dashboard/payments/new", done: payment !== undefined },
  ];
  return { steps, complete: steps.every((s) => s.done) };
}

/** Each domain's withdrawal wallet with its balance of every token of the user (from the chain, cached). */
export async function walletBalances(db: Db, userId: number) {
  const [userDomains, userTokens] = await Promise.all([
    db
      .select()
      .from(domains)
      .where(and(eq(domains.userId, userId), isNull(domains.deletedAt)))
      .orderBy(domains.id),
    db.select().from(tokens).where(eq(tokens.userId, userId)).orderBy(tokens.id),
  ]);
  return Promise.all(
    userDomains.map(async (d) => {
      // biome-ignore lint/style/noNonNullAssertion: addDomain sets it in the transaction that inserts the domain, so every stored domain has one
      const wallet = d.withdrawalAddress!;
      return {
        domainId: d.id,
        domain: d.origin,
        wallet,
        balances: await Promise.all(
          userTokens.map(async (t) => ({
            tokenId: t.id,
            symbol: t.symbol,
            network: t.network,
            balance: (await tokenBalanceOf(t.network, t, wallet))?.formatted ?? null,
          })),
        ),
      };
    }),
  );
}

/** Gas tanks that are low or short, with the forwards waiting for them. Empty when all is well. */
export async function lowGasTanks(db: Db) {
  const tank = serviceAddresses().gasTank();
  const out: { network: string; address: string; balance: string | null; waitingForwards: number }[] = [];
  for (const network of listNetworks()) {
    const [balance, [waiting]] = await Promise.all([
      bnbBalanceOf(network.name, tank),
      db
        .select({ n: count() })
        .from(forwards)
        .where(and(eq(forwards.network, network.name), eq(forwards.status, "pending"), sql`${forwards.lastError} like 'gas tank%'`)),
    ]);
    const waitingForwards = Number(waiting?.n ?? 0);
    if (waitingForwards > 0 || (balance !== null && balance.wei < GAS_TANK_LOW_WEI))
      out.push({ network: network.name, address: tank, balance: balance?.formatted ?? null, waitingForwards });
  }
  return out;
}

export async function recentPayments(db: Db, userId: number) {
  return (await listUserPayments(db, userId, { page: 1, limit: 6 })).items;
}
