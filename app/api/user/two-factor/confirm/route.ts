import { issueBearerToken } from "@/lib/accounts/auth/bearer-token";
import { confirmEnrolment, confirmEnrolmentSchema } from "@/lib/accounts/users/two-factor";
import { readJson } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/**
 * POST /api/user/two-factor/confirm {code, currentPassword} → {recoveryCodes, token, expiresAt}:
 * a code of the seed from step 1 and the current password turn two-factor on. The recovery codes
 * are shown this once; every earlier bearer token and dashboard session ends (the caller's too),
 * so the answer carries a fresh token.
 */
export const POST = withUser(async ({ req, db, user }) => {
  const { code, currentPassword } = await readJson(req, confirmEnrolmentSchema);
  const recoveryCodes = await confirmEnrolment(db, user, code, currentPassword, clientAddress(req.headers));
  // The token version moved on with it: the fresh token carries the new one.
  return ok({ recoveryCodes, ...(await issueBearerToken({ ...user, tokenVersion: user.tokenVersion + 1 })) });
});
