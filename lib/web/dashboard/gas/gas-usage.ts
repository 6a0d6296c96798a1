/**
 * The merchant's gas page and GET /api/user/gas: what the gas tank spent for it per UTC day and
 * kind (BNB, decimal strings), and today's standing against its plan's limits.
 */

import { formatAmount } from "../../../base/money";
import type { Db } from "../../../db";
import { withdrawalAllowance } from "../../../domain/gas/limits";
import { type GasSpendKind, gasSpendByDay, utcDayStart } from "../../../domain/gas/spend";
import { GAS_SPEND_LABELS } from "../shared/wording";

export interface GasUsageDay {
  day: string;
  sweep: string;
  batch: string;
  withdrawal: string;
  replacement: string;
  total: string;
  transactions: number;
}

export interface GasUsage {
  today: {
    plan: string;
    spent: string;
    /** Null: the plan sets no budget. */
    budget: string | null;
    remaining: string | null;
    /** Share of the budget spent (0–100, whole percent); 0 without a budget. */
    budgetUsedPercent: number;
    /** Withdrawals are refused for the rest of the day (budget spent or requests used up). */
    withdrawalsRefused: "gas-budget" | "withdrawal-limit" | null;
    withdrawals: number;
    withdrawalLimit: number | null;
    /** Start of the next UTC day, when both counters start again. */
    resetsAt: string;
  };
  /** Oldest first, one entry per day of the window, days without spend included. */
  days: GasUsageDay[];
  /** Each kind in the merchant's words. */
  kinds: Record<GasSpendKind, string>;
}

export const GAS_USAGE_DAYS = 30;

export async function getGasUsage(db: Db, userId: number, days = GAS_USAGE_DAYS, now = new Date()): Promise<GasUsage> {
  const [spend, allowance] = await Promise.all([gasSpendByDay(db, userId, days, now), withdrawalAllowance(db, userId, now)]);
  const today = utcDayStart(now);
  const bnb = (wei: bigint) => formatAmount(wei, 18);
  const series: GasUsageDay[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(today.getTime() - i * 86_400_000).toISOString().slice(0, 10);
    const rows = spend.filter((r) => r.day === day);
    const of = (kind: GasSpendKind) => rows.filter((r) => r.kind === kind).reduce((sum, r) => sum + r.wei, 0n);
    const total = rows.reduce((sum, r) => sum + r.wei, 0n);
    series.push({
      day,
      sweep: bnb(of("sweep")),
      batch: bnb(of("batch")),
      withdrawal: bnb(of("withdrawal")),
      replacement: bnb(of("replacement")),
      total: bnb(total),
      transactions: rows.reduce((sum, r) => sum + r.transactions, 0),
    });
  }
  const { limits, gasSpentToday } = allowance;
  const budget = limits.dailyGasBudget;
  return {
    today: {
      plan: limits.planName,
      spent: bnb(gasSpentToday),
      budget: budget === null ? null : bnb(budget),
      remaining: budget === null ? null : bnb(budget > gasSpentToday ? budget - gasSpentToday : 0n),
      budgetUsedPercent: budget === null ? 0 : budget === 0n ? 100 : Number(minBig((gasSpentToday * 100n) / budget, 100n)),
      withdrawalsRefused:
        budget !== null && gasSpentToday >= budget
          ? "gas-budget"
          : limits.dailyWithdrawals !== null && allowance.withdrawalsToday >= limits.dailyWithdrawals
            ? "withdrawal-limit"
            : null,
      withdrawals: allowance.withdrawalsToday,
      withdrawalLimit: limits.dailyWithdrawals,
      resetsAt: new Date(today.getTime() + 86_400_000).toISOString(),
    },
    days: series,
    kinds: GAS_SPEND_LABELS,
  };
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
