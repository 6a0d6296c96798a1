import { asc, eq } from "drizzle-orm";
import { AppError } from "../../base/errors";
import { amountProblemMessage, formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import { type Plan, plans } from "../../db/schema";
import { flag } from "./tokens";

export const PLANS_USAGE = `  plans list                                               plans with their quotas and daily limits
  plans set <plan> [--gas-budget <BNB>] [--daily-withdrawals <n>] [--max-domains <n>]
                                                           change a plan's limits ("unlimited" lifts one); they apply at once`;

/** npm run admin -- plans …: returns the lines to print. */
export async function plansCommand(db: Db, args: string[]): Promise<string[]> {
  const [action, id, ...rest] = args;
  if (action === "list") return (await db.select().from(plans).orderBy(asc(plans.priceUsdCents), asc(plans.id))).map(describePlan);
  if (action !== "set" || !id || id.startsWith("--")) throw new AppError("VALIDATION_ERROR", `usage:\n${PLANS_USAGE}`);
  const changes: Partial<Pick<Plan, "dailyGasBudget" | "dailyWithdrawals" | "maxDomains">> = {};
  const budget = flag(rest, "--gas-budget");
  if (budget !== undefined) changes.dailyGasBudget = limitOf(budget, (v) => bnb(v));
  const withdrawals = flag(rest, "--daily-withdrawals");
  if (withdrawals !== undefined) changes.dailyWithdrawals = limitOf(withdrawals, (v) => count("--daily-withdrawals", v));
  const domains = flag(rest, "--max-domains");
  if (domains !== undefined) changes.maxDomains = limitOf(domains, (v) => count("--max-domains", v));
  if (Object.keys(changes).length === 0) throw new AppError("VALIDATION_ERROR", `nothing to change\nusage:\n${PLANS_USAGE}`);
  const [row] = await db.update(plans).set(changes).where(eq(plans.id, id)).returning();
  if (!row) throw new AppError("NOT_FOUND", `unknown plan "${id}" (npm run admin -- plans list)`);
  return [`updated: ${describePlan(row)}`];
}

export function describePlan(plan: Plan): string {
  const or = (v: unknown, shown: string) => (v === null ? "unlimited" : shown);
  return [
    plan.id.padEnd(12),
    `sessions/month ${or(plan.monthlySessionQuota, String(plan.monthlySessionQuota))}`,
    `gas/day ${or(plan.dailyGasBudget, `${formatAmount(plan.dailyGasBudget ?? 0n, 18)} BNB`)}`,
    `withdrawals/day ${or(plan.dailyWithdrawals, String(plan.dailyWithdrawals))}`,
    `domains ${or(plan.maxDomains, String(plan.maxDomains))}`,
    plan.selfServe ? "self-serve" : "granted by the operator",
  ].join("  ");
}

function limitOf<T>(value: string, parse: (v: string) => T): T | null {
  return value === "unlimited" ? null : parse(value);
}

function bnb(value: string): bigint {
  const parsed = value === "0" ? 0n : parseAmount(value, 18);
  if (typeof parsed === "string") throw new AppError("VALIDATION_ERROR", amountProblemMessage("--gas-budget", parsed, 18));
  return parsed;
}

function count(name: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new AppError("VALIDATION_ERROR", `${name} must be a whole number or "unlimited"`);
  return Number(value);
}
