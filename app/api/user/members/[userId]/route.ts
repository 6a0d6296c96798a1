import { changeMemberRole, changeRoleSchema, removeMember } from "@/lib/accounts/members/manage-members";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";
import { parseIntegerId } from "@/lib/web/http/params";

/** PATCH /api/user/members/:userId {role} → the member with the new role (owner only; the owner's own role is handed over, not changed). */
export const PATCH = withMember("members", async ({ req, db, params, ...principal }) => {
  const userId = parseIntegerId(params.userId, "userId");
  const { role } = await readJson(req, changeRoleSchema);
  return ok(await changeMemberRole(db, principal, userId, role));
});

/** DELETE /api/user/members/:userId → the member leaves the account at once (owner only; never the owner). */
export const DELETE = withMember("members", async ({ db, params, ...principal }) =>
  ok(await removeMember(db, principal, parseIntegerId(params.userId, "userId"))),
);
