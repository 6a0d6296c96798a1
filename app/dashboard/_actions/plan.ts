"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/http/server-action";
import { choosePlanSchema, chooseSelfServePlan, type PlanView } from "@/lib/packages/current-plan";

export async function choosePlanAction(plan: string): Promise<ActionResult<PlanView>> {
  const result = await runAction(choosePlanSchema, { plan }, ({ db, user }, data) => chooseSelfServePlan(db, user.id, data.plan));
  revalidatePath("/dashboard", "layout");
  return result;
}
