import { revokeAllApiKeys } from "@/lib/accounts/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "@/lib/accounts/api-keys/sign-out-everywhere";
import { byMember } from "@/lib/accounts/audit/audit-origin";
import { requirePermission } from "@/lib/accounts/members/principal";
import { signOutEverywhere } from "@/lib/accounts/users/change-password";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/**
 * POST /api/user/sign-out-everywhere {revokeApiKeys?} → every bearer token and dashboard session of
 * the user stops working, this one included; with `revokeApiKeys: true` every API key of the
 * account too (X-Account-Id; the developer permission there).
 */
export const POST = withMember("read", async ({ req, db, ...principal }) => {
  const { revokeApiKeys } = await readJson(req, signOutEverywhereSchema);
  if (revokeApiKeys) requirePermission(principal, "developer");
  const apiKeysRevoked = revokeApiKeys ? await revokeAllApiKeys(db, principal.account.id, byMember(principal)) : 0;
  await signOutEverywhere(db, principal.member.id);
  return ok({ signedOut: true, apiKeysRevoked });
});
