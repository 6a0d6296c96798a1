import { choosePlanSchema, chooseSelfServePlan, getPlan } from "@/lib/domain/plans/current-plan";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

// The URL keeps "package" (shops and scripts call it, and the error code NO_PACKAGE is the
// interface's); everything behind it says "plan".

/** GET /api/user/package → the active plan and this month's usage. */
export const GET = withMember("read", async ({ db, account }) => ok(await getPlan(db, account.id)));

/** POST /api/user/package {plan:"starter"} → activates a self-serve plan. */
export const POST = withMember("settings", async ({ req, db, account }) => {
  const { plan } = await readJson(req, choosePlanSchema);
  return ok(await chooseSelfServePlan(db, account.id, plan));
});
