/**
 * What a merchant's plan lets it cost the operator (docs/design.md §18). A merchant without an
 * active plan is held to the free self-serve plan's limits: signing up costs nothing to
 * the operator either.
 */

import { and, asc, count, eq, gt, gte, inArray, isNull, sum } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { domains, payoutBatches, plans, users, withdrawals } from "../../db/schema";
import { activeSubscription } from "../plans/current-plan";
import { type LimitReason, limitRefusal } from "./reasons";
import { gasSpentSince, utcDayStart } from "./spend";

export interface PlanLimits {
  planName: string;
  /** Wei per UTC day; null = unlimited. */
  dailyGasBudget: bigint | null;
  dailyWithdrawals: number | null;
  maxDomains: number | null;
}

/** Used only when no self-serve plan exists (an operator removed it). */
const FALLBACK: PlanLimits = { planName: "none", dailyGasBudget: 100_000_000_000_000_000n, dailyWithdrawals: 100, maxDomains: 20 };

export async function planLimits(db: Db, userId: number): Promise<PlanLimits> {
  const active = await activeSubscription(db, userId);
  const plan =
    active?.plan ??
    (await db.select().from(plans).where(eq(plans.selfServe, true)).orderBy(asc(plans.priceUsdCents), asc(plans.id)).limit(1))[0];
  if (!plan) return FALLBACK;
  return { planName: plan.name, dailyGasBudget: plan.dailyGasBudget, dailyWithdrawals: plan.dailyWithdrawals, maxDomains: plan.maxDomains };
}

export interface WithdrawalAllowance {
  limits: PlanLimits;
  gasSpentToday: bigint;
  /** Wei the open payout batches hold for their chunks not signed yet: spent as far as the budget is concerned. */
  gasReserved: bigint;
  /** Withdrawals and refunds sent today, and the items of today's payout batches (each item is a withdrawal). */
  withdrawalsToday: number;
}

export async function withdrawalAllowance(db: Db, userId: number, now = new Date()): Promise<WithdrawalAllowance> {
  const today = utcDayStart(now);
  const [limits, gasSpentToday, [sent], [items], [held]] = await Promise.all([
    planLimits(db, userId),
    gasSpentSince(db, userId, today),
    db
      .select({ n: count() })
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, userId), gte(withdrawals.createdAt, today))),
    db
      .select({ n: sum(payoutBatches.itemCount) })
      .from(payoutBatches)
      .where(and(eq(payoutBatches.userId, userId), gte(payoutBatches.createdAt, today))),
    db
      .select({ wei: sum(payoutBatches.gasReserved) })
      .from(payoutBatches)
      // Open batches only: a final one (completed, failed, rejected) has released its reservation.
      .where(
        and(
          eq(payoutBatches.userId, userId),
          gt(payoutBatches.gasReserved, 0n),
          inArray(payoutBatches.status, ["awaiting_approval", "pending", "sending"]),
        ),
      ),
  ]);
  return {
    limits,
    gasSpentToday,
    gasReserved: BigInt(held?.wei ?? 0),
    withdrawalsToday: (sent?.n ?? 0) + Number(items?.n ?? 0),
  };
}

/** What a request adds to the day: its transfers (a payout batch's items) and, for a batch, its estimated gas. */
export interface MoneyOutRequest {
  checkGasBudget: boolean;
  /** How many transfers it makes (default 1). */
  transfers?: number;
  /** Wei its chunks are estimated to cost, held against the budget (payout batches). */
  gasEstimate?: bigint;
}

/**
 * RATE_LIMITED until the next UTC day once the merchant's withdrawals of today, or the gas the
 * tank spent on it today (sweeps included) and what its open payout batches hold, reached its
 * plan's limit — or would, with this request's transfers and estimated gas. Incoming payments are
 * never refused for it: only what the merchant itself triggers is. A request let through once is
 * not refused for the gas of its own top-up (`checkGasBudget: false` on its retry): that BNB is
 * already spent, and refusing would waste it. A batch whose gas alone exceeds a whole day's budget
 * can never go: VALIDATION_ERROR, split it.
 */
export async function assertMayWithdraw(
  db: Db,
  userId: number,
  request: MoneyOutRequest = { checkGasBudget: true },
  now = new Date(),
): Promise<void> {
  const { limits, gasSpentToday, gasReserved, withdrawalsToday } = await withdrawalAllowance(db, userId, now);
  const transfers = request.transfers ?? 1;
  const estimate = request.gasEstimate ?? 0n;
  const retryAfter = Math.max(1, Math.ceil((utcDayStart(now).getTime() + 86_400_000 - now.getTime()) / 1000));
  const refuse = (reason: LimitReason, message: string) =>
    limitRefusal("RATE_LIMITED", reason, `${message}; nothing was sent. It resets at 00:00 UTC (in ${retryAfter} s)`, undefined, {
      "retry-after": String(retryAfter),
    });
  if (limits.dailyWithdrawals !== null && withdrawalsToday + transfers > limits.dailyWithdrawals) {
    throw refuse(
      "daily-withdrawals-used-up",
      transfers === 1
        ? `your ${limits.planName} plan allows ${limits.dailyWithdrawals} withdrawals a day and ${withdrawalsToday} were requested today`
        : `your ${limits.planName} plan allows ${limits.dailyWithdrawals} withdrawals a day (each payout item counts); ${withdrawalsToday} were requested today and this batch has ${transfers}`,
    );
  }
  if (!request.checkGasBudget || limits.dailyGasBudget === null) return;
  const budget = limits.dailyGasBudget;
  if (estimate > budget)
    throw limitRefusal(
      "VALIDATION_ERROR",
      "payout-gas-above-budget",
      `this batch's gas is estimated at ${formatAmount(estimate, 18)} BNB, more than your ${limits.planName} plan's whole daily gas budget of ${formatAmount(budget, 18)} BNB; split it into smaller batches. Nothing was recorded`,
    );
  const used = gasSpentToday + gasReserved;
  if (used >= budget || (estimate > 0n && used + estimate > budget)) {
    const held = gasReserved > 0n ? ` and ${formatAmount(gasReserved, 18)} BNB held by open payout batches` : "";
    throw refuse(
      "daily-gas-budget-used-up",
      estimate > 0n
        ? `this batch's gas is estimated at ${formatAmount(estimate, 18)} BNB; with today's ${formatAmount(gasSpentToday, 18)} BNB${held} it would pass your ${limits.planName} plan's daily gas budget of ${formatAmount(budget, 18)} BNB; incoming payments are still forwarded`
        : `the gas this gateway spent for you today (${formatAmount(gasSpentToday, 18)} BNB, sweeps and withdrawals${held}) reached your ${limits.planName} plan's daily gas budget of ${formatAmount(budget, 18)} BNB; incoming payments are still forwarded`,
    );
  }
}

/**
 * Serialises one merchant's changes that count against its plan (domains), so the checks above hold
 * under concurrent requests. `FOR NO KEY UPDATE`, as money out takes the same row
 * (lib/domain/transfers/money-out-locks.ts): rows inserted with a foreign key to the account never wait on it.
 */
export async function lockMerchant(tx: Db, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
}

export async function assertMayAddDomain(db: Db, userId: number): Promise<void> {
  const limits = await planLimits(db, userId);
  if (limits.maxDomains === null) return;
  const [held] = await db
    .select({ n: count() })
    .from(domains)
    .where(and(eq(domains.userId, userId), isNull(domains.deletedAt)));
  const heldCount = held?.n ?? 0;
  if (heldCount >= limits.maxDomains) {
    throw limitRefusal(
      "VALIDATION_ERROR",
      "domain-limit-reached",
      `your ${limits.planName} plan allows ${limits.maxDomains} domains and you have ${heldCount}; delete one you no longer use first`,
    );
  }
}
