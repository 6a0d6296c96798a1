"use server";

import { revalidatePath } from "next/cache";
import { choosePlanSchema, chooseSelfServePlan, type PlanView } from "../../../domain/plans/current-plan";
import { type ActionResult, runAction } from "../shared/server-action";

export async function choosePlanAction(plan: string): Promise<ActionResult<PlanView>> {
  const result = await runAction("settings", choosePlanSchema, { plan }, ({ db, account }, data) =>
    chooseSelfServePlan(db, account.id, data.plan),
  );
  revalidatePath("/dashboard", "layout");
  return result;
}
