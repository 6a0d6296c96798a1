import { revokeAllApiKeys } from "@/lib/accounts/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "@/lib/accounts/api-keys/sign-out-everywhere";
import { signOutEverywhere } from "@/lib/accounts/users/change-password";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/**
 * POST /api/user/sign-out-everywhere {revokeApiKeys?} → every bearer token and dashboard session of
 * the user stops working, this one included; with `revokeApiKeys: true` every API key too.
 */
export const POST = withUser(async ({ req, db, user }) => {
  const { revokeApiKeys } = await readJson(req, signOutEverywhereSchema);
  const apiKeysRevoked = revokeApiKeys ? await revokeAllApiKeys(db, user.id) : 0;
  await signOutEverywhere(db, user.id);
  return ok({ signedOut: true, apiKeysRevoked });
});
