import { issueBearerToken } from "@/lib/accounts/auth/bearer-token";
import { changePassword, changePasswordSchema } from "@/lib/accounts/users/change-password";
import { readJson } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/**
 * POST /api/user/password {currentPassword, newPassword} → {token, expiresAt}: every earlier
 * bearer token and dashboard session stops working (the caller's too), so the answer carries a
 * fresh token.
 */
export const POST = withUser(async ({ req, db, user }) => {
  const changed = await changePassword(db, user.id, await readJson(req, changePasswordSchema), clientAddress(req.headers));
  return ok(await issueBearerToken(changed));
});
