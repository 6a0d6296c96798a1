import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { type User, users } from "../../db/schema";
import { clearSignInFailures, countSignInAttempt } from "../abuse/sign-in-throttle";
import { emailSchema } from "../users/create-user";
import { dummyPasswordHash, verifyPassword } from "../users/password";
import { accountRefusal } from "../users/reasons";

const INVALID = "invalid email or password";

/**
 * The user for these credentials, or UNAUTHORIZED with one message whether or not the email
 * exists (an unknown email still spends the time of a password check); RATE_LIMITED once the
 * account has used up its attempts (sign-in-throttle.ts; counted before the check, so concurrent
 * guesses cannot all slip through).
 */
export async function verifyCredentials(
  db: Db,
  email: unknown,
  password: unknown,
  options: { secondFactorFollows?: boolean } = {},
): Promise<User> {
  const parsedEmail = emailSchema.safeParse(email);
  if (!parsedEmail.success || typeof password !== "string" || password.length === 0 || password.length > 200) {
    throw accountRefusal("UNAUTHORIZED", "credentials-invalid", INVALID);
  }
  await countSignInAttempt(db, parsedEmail.data);
  const [user] = await db.select().from(users).where(eq(users.email, parsedEmail.data));
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw accountRefusal("UNAUTHORIZED", "credentials-invalid", INVALID);
  // With a second factor still to check, a right password alone does not clear the count (and
  // stays counted): guessing codes after it must still be throttled.
  if (!(options.secondFactorFollows && user.totpEnabledAt)) await clearSignInFailures(db, parsedEmail.data);
  return user;
}
