/** The plan page's loader: it opens the database itself, so app/ never holds a handle. */
import { getDb } from "../../../db";
import { getPlan, listPlans } from "../../../domain/plans/current-plan";

/** `/dashboard/plan`: the current plan with its usage, and the plans to choose from. */
export async function loadPlanPage(userId: number) {
  const db = await getDb();
  const [current, plans] = await Promise.all([getPlan(db, userId), listPlans(db)]);
  return { current, plans };
}
