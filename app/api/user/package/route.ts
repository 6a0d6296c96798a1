import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { choosePlanSchema, chooseSelfServePlan, getPackage } from "@/lib/packages/current-package";

/** GET /api/user/package → the active plan and this month's usage. */
export const GET = withUser(async ({ db, user }) => ok(await getPackage(db, user.id)));

/** POST /api/user/package {plan:"starter"} → activates a self-serve plan. */
export const POST = withUser(async ({ req, db, user }) => {
  const { plan } = await readJson(req, choosePlanSchema);
  return ok(await chooseSelfServePlan(db, user.id, plan));
});
