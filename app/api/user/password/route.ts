import { issueBearerToken } from "@/lib/auth/bearer-token";
import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { changePassword, changePasswordSchema } from "@/lib/users/change-password";

/**
 * POST /api/user/password {currentPassword, newPassword} → {token, expiresAt}: every earlier
 * bearer token and dashboard session stops working (the caller's too), so the answer carries a
 * fresh token.
 */
export const POST = withUser(async ({ req, db, user }) => {
  const changed = await changePassword(db, user.id, await readJson(req, changePasswordSchema));
  return ok(await issueBearerToken(changed));
});
