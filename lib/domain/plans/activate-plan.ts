import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { plans, type Subscription, subscriptions } from "../../db/schema";
import { planRefusal } from "./reasons";

/**
 * Makes `planId` the user's active subscription, ending the previous one in the same
 * transaction (a partial unique index allows one active subscription per user).
 */
export async function activatePlan(db: Db, userId: number, planId: string): Promise<Subscription> {
  return db.transaction(async (tx) => {
    const [plan] = await tx.select().from(plans).where(eq(plans.id, planId));
    if (!plan) throw planRefusal("VALIDATION_ERROR", "plan-unknown", `unknown plan "${planId}"`);
    const [current] = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, "active")))
      .for("update");
    if (current?.planId === planId) return current;
    if (current) {
      await tx
        .update(subscriptions)
        .set({ status: "cancelled", endsAt: new Date(), updatedAt: new Date() })
        .where(eq(subscriptions.id, current.id));
    }
    return requireRow(await tx.insert(subscriptions).values({ userId, planId }).returning(), "insert into subscriptions");
  });
}
