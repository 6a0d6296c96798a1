import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { prepared } from "../../db/prepared";
import { type Plan, plans, type Subscription, sessionUsage, subscriptions } from "../../db/schema";
import { activatePlan } from "./activate-plan";
import { planRefusal } from "./reasons";

export const choosePlanSchema = z.object({
  plan: z.string({ error: 'plan must be a string, e.g. "starter"' }).trim().min(1, { error: "plan is required" }),
});

export interface PlanView {
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

export async function activeSubscription(
  db: Db,
  userId: number,
  now = new Date(),
): Promise<{ subscription: Subscription; plan: Plan } | null> {
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

export function usagePeriod(now = new Date()): string {
  return monthStart(now).toISOString().slice(0, 7);
}

async function sessionsThisMonth(db: Db, userId: number, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ sessions: sessionUsage.sessions })
    .from(sessionUsage)
    .where(and(eq(sessionUsage.userId, userId), eq(sessionUsage.period, usagePeriod(now))));
  return row?.sessions ?? 0;
}

export async function getPlan(db: Db, userId: number): Promise<PlanView> {
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
      period: usagePeriod(),
      sessionsCreated: used,
      remaining: current === null ? 0 : quota === null ? null : Math.max(0, quota - used),
    },
  };
}

/** A merchant may switch itself only to a self-serve plan (the free starter); others are granted by an operator. */
export async function chooseSelfServePlan(db: Db, userId: number, planId: string): Promise<PlanView> {
  const [plan] = await db.select().from(plans).where(eq(plans.id, planId));
  if (!plan) throw planRefusal("VALIDATION_ERROR", "plan-unknown", `unknown plan "${planId}"`);
  if (!plan.selfServe) {
    throw planRefusal(
      "VALIDATION_ERROR",
      "plan-not-self-serve",
      `plan "${planId}" is granted by the operator; only self-serve plans can be chosen here`,
    );
  }
  await activatePlan(db, userId, planId);
  return getPlan(db, userId);
}

/** The plan that lets this user create payments now, or NO_PACKAGE. */
export async function requireActivePlan(db: Db, userId: number, now = new Date()): Promise<Plan> {
  const [row] = await prepared(db, "active_plan_of_user", (d) =>
    d
      .select({ plan: plans })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(
        and(
          eq(subscriptions.userId, sql.placeholder("userId")),
          eq(subscriptions.status, "active"),
          lte(subscriptions.startsAt, sql.placeholder("now")),
          or(isNull(subscriptions.endsAt), gt(subscriptions.endsAt, sql.placeholder("now"))),
        ),
      )
      .prepare("active_plan_of_user"),
  ).execute({ userId, now: now.toISOString() }); // placeholders skip column mapping: pass the wire form
  if (!row) throw noPlanError();
  return row.plan;
}

export function noPlanError(): AppError {
  return planRefusal("NO_PACKAGE", "no-plan", "no active plan: choose one (POST /api/user/package) before creating payments");
}

export function quotaUsedUpError(plan: Pick<Plan, "name" | "monthlySessionQuota">): AppError {
  return planRefusal(
    "NO_PACKAGE",
    "plan-quota-used-up",
    `the ${plan.name} plan allows ${plan.monthlySessionQuota} payment sessions a month; this month's are used up`,
  );
}

/**
 * Counts one session against this month's quota of `plan`, or NO_PACKAGE when it is used up.
 * (payment/create runs the same rule inside its one insert statement: lib/domain/payments/insert-session.ts.)
 * Call it inside the session's creating transaction: the conditional upsert is atomic (concurrent
 * creates cannot overrun the quota) and rolls back with the session.
 */
export async function countSessionAgainstQuota(db: Db, userId: number, plan: Plan, now = new Date()): Promise<void> {
  const quota = plan.monthlySessionQuota;
  const exhausted = () => quotaUsedUpError(plan);
  if (quota !== null && quota < 1) throw exhausted();
  const [counted] = await db
    .insert(sessionUsage)
    .values({ userId, period: usagePeriod(now), sessions: 1 })
    .onConflictDoUpdate({
      target: [sessionUsage.userId, sessionUsage.period],
      set: { sessions: sql`${sessionUsage.sessions} + 1` },
      setWhere: quota === null ? undefined : sql`${sessionUsage.sessions} < ${quota}`,
    })
    .returning({ sessions: sessionUsage.sessions });
  if (!counted) throw exhausted();
}

/** Both checks at once, for callers that create a session in their own transaction. */
export async function reserveSessionQuota(db: Db, userId: number, now = new Date()): Promise<void> {
  await countSessionAgainstQuota(db, userId, await requireActivePlan(db, userId, now), now);
}

export async function listPlans(db: Db): Promise<Plan[]> {
  const rows = await db.select().from(plans);
  // Free first, then by quota (unlimited last).
  return rows.sort(
    (a, b) => a.priceUsdCents - b.priceUsdCents || (a.monthlySessionQuota ?? Infinity) - (b.monthlySessionQuota ?? Infinity),
  );
}
