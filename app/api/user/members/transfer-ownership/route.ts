import { transferOwnership, transferOwnershipSchema } from "@/lib/accounts/members/manage-members";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/**
 * POST /api/user/members/transfer-ownership {userId, code?} → the members: another member (with
 * two-factor on) becomes owner, the owner becomes admin; the owner's two-factor code when it is on.
 */
export const POST = withMember("members", async ({ req, db, ...principal }) => {
  const { userId, code } = await readJson(req, transferOwnershipSchema);
  return ok({ items: await transferOwnership(db, principal, userId, code) });
});
