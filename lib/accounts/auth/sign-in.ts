import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import type { User } from "../../db/schema";
import { auditInEveryAccount } from "../audit/audit-origin";
import { accountRefusal } from "../users/reasons";
import { verifySecondFactor } from "../users/two-factor";
import { verifyCredentials } from "./verify-credentials";

/** What a sign-in with two-factor on says when the code is missing or wrong (the login form keys on their reasons). */
export const TWO_FACTOR_REQUIRED = "a two-factor code is required: enter the current code from your authenticator app, or a recovery code";
export const TWO_FACTOR_WRONG = "the two-factor code is not right (or was used already)";

/**
 * Email and password, then — when the account has two-factor on — a current code or an unused
 * recovery code (`code`). Every failure is UNAUTHORIZED; a missing code is asked for only after
 * the right password, so it tells nothing to someone who does not have it.
 */
export async function verifySignIn(db: Db, email: unknown, password: unknown, code: unknown, address: string | null = null): Promise<User> {
  const user = await checkSignIn(db, email, password, code);
  await auditInEveryAccount(db, user, address, "auth.sign_in", { after: { twoFactor: user.totpEnabledAt !== null } });
  return user;
}

async function checkSignIn(db: Db, email: unknown, password: unknown, code: unknown): Promise<User> {
  const user = await verifyCredentials(db, email, password, { secondFactorFollows: true });
  if (!user.totpEnabledAt) return user;
  if (typeof code !== "string" || code.trim() === "")
    throw accountRefusal("UNAUTHORIZED", "two-factor-code-required", TWO_FACTOR_REQUIRED, [{ path: "code", message: "required" }]);
  try {
    // One sign-in is one attempt: verifyCredentials counted it (and left it counted) before the password check.
    await verifySecondFactor(db, user, code, { allowRecoveryCode: true, attemptCounted: true });
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION_ERROR")
      throw accountRefusal("UNAUTHORIZED", "two-factor-code-wrong", TWO_FACTOR_WRONG, [{ path: "code", message: TWO_FACTOR_WRONG }]);
    throw error;
  }
  return user;
}
