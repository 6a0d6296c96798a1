import { revokeAllApiKeys } from "@/lib/api-keys/manage-api-keys";
import { signOutEverywhereSchema } from "@/lib/api-keys/sign-out-everywhere";
import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { signOutEverywhere } from "@/lib/users/change-password";

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
