import { and, count, eq, gte, gt, isNull, lte, or } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db";
import { paymentSessions, plans, subscriptions, type Plan, type Subscription } from "../db/schema";
import { AppError } from "../errors";
import { activatePlan } from "./activate-plan";

export const choosePlanSchema = z.object({
  plan: z.string({ error: "plan must be a string, e.g. \"starter\"" }).trim().min(1, { error: "plan is required" }),
});

export interface PackageView {
  active: boolean;
  plan: { id: string; name: string; monthlySessionQuota: number | null; priceUsdCents: number } | null;
  startsAt: string | null;
  endsAt: string | null;
  usage: { period: string; sessionsCreated: number; remaining: number | null };
}

/** Quotas count the sessions created in the current calendar month, UTC. */
export function monthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function activeSubscription(db: Db, userId: number, now = new Date()): Promise<{ subscription: Subscription; plan: Plan } | null> {
  const [row] = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.status, "active"),
        lte(subscriptions.startsAt, now),
        or(isNull(subscriptions.endsAt), gt(subscriptions.endsAt, now)),
      ),
    );
  return row ?? null;
}

async function sessionsThisMonth(db: Db, userId: number, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(paymentSessions)
    .where(and(eq(paymentSessions.userId, userId), gte(paymentSessions.createdAt, monthStart(now))));
  return Number(row?.n ?? 0);
}

export async function getPackage(db: Db, userId: number): Promise<PackageView> {
  const current = await activeSubscription(db, userId);
  const used = await sessionsThisMonth(db, userId);
  const quota = current?.plan.monthlySessionQuota ?? null;
  return {
    active: current !== null,
    plan: current
      ? {
          id: current.plan.id,
          name: current.plan.name,
          monthlySessionQuota: current.plan.monthlySessionQuota,
          priceUsdCents: current.plan.priceUsdCents,
        }
      : null,
    startsAt: current?.subscription.startsAt.toISOString() ?? null,
    endsAt: current?.subscription.endsAt?.toISOString() ?? null,
    usage: {
      period: monthStart().toISOString().slice(0, 7),
      sessionsCreated: used,
      remaining: current === null ? 0 : quota === null ? null : Math.max(0, quota - used),
    },
  };
}

/** A merchant may switch itself only to a self-serve plan (the free starter); others are granted by an operator. */
export async function chooseSelfServePlan(db: Db, userId: number, planId: string): Promise<PackageView> {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  if (!plan) throw new AppError("VALIDATION_ERROR", `unknown plan "${planId}"`);
  if (!plan.selfServe) {
    throw new AppError("VALIDATION_ERROR", `plan "${planId}" is granted by the operator; only self-serve plans can be chosen here`);
  }
  await activatePlan(db, userId, planId);
  return getPackage(db, userId);
}

/**
 * NO_PACKAGE unless the user has an active package with quota left. Run it inside the session's
 * creating transaction: the subscription row lock serialises concurrent creates of one user, so
 * the quota cannot be overrun.
 */
export async function assertSessionQuota(db: Db, userId: number, now = new Date()): Promise<void> {
  const current = await activeSubscription(db, userId, now);
  if (!current) throw new AppError("NO_PACKAGE", "no active package: choose one (POST /api/user/package) before creating payments");
  await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.id, current.subscription.id)).for("update");
  const quota = current.plan.monthlySessionQuota;
  if (quota !== null && (await sessionsThisMonth(db, userId, now)) >= quota) {
    throw new AppError("NO_PACKAGE", `the ${current.plan.name} package allows ${quota} payment sessions a month; this month's are used up`);
  }
}
