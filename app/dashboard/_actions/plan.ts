"use server";

import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/http/server-action";
import { choosePlanSchema, chooseSelfServePlan, type PackageView } from "@/lib/packages/current-package";

export async function choosePlanAction(plan: string): Promise<ActionResult<PackageView>> {
  const result = await runAction(choosePlanSchema, { plan }, ({ db, user }, data) => chooseSelfServePlan(db, user.id, data.plan));
  revalidatePath("/dashboard", "layout");
  return result;
}
