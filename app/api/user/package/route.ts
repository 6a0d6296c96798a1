import { choosePlanSchema, chooseSelfServePlan, getPlan } from "@/lib/domain/plans/current-plan";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

// The URL keeps "package" (shops and scripts call it, and the error code NO_PACKAGE is the
// interface's); everything behind it says "plan".

/** GET /api/user/package → the active plan and this month's usage. */
export const GET = withUser(async ({ db, user }) => ok(await getPlan(db, user.id)));

/** POST /api/user/package {plan:"starter"} → activates a self-serve plan. */
export const POST = withUser(async ({ req, db, user }) => {
  const { plan } = await readJson(req, choosePlanSchema);
  return ok(await chooseSelfServePlan(db, user.id, plan));
});
