import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type User, users } from "../../db/schema";
import { clearSignInFailures, countSignInAttempt } from "../abuse/sign-in-throttle";
import { auditInEveryAccount } from "../audit/audit-origin";
import { passwordSchema } from "./create-user";
import { hashPassword, verifyPassword } from "./password";
import { accountRefusal } from "./reasons";

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: "current password is required" }).min(1, { error: "current password is required" }),
    newPassword: passwordSchema,
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: "the new password must differ from the current one",
    path: ["newPassword"],
  });

/**
 * Answers the user as changed (with its new token version, for a fresh token). The current-password
 * check counts as a sign-in attempt of the account, before it is made (sign-in-throttle.ts): a
 * stolen session cannot guess the password faster here than on the sign-in form. With two-factor
 * on, the right password alone does not clear the count: a session holder who knows the password
 * must not reset the budget of two-factor guesses with it.
 */
export async function changePassword(
  db: Db,
  userId: number,
  input: z.output<typeof changePasswordSchema>,
  address: string | null = null,
): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account no longer exists");
  await verifyCurrentPassword(db, user, input.currentPassword);
  // Every token issued before (bearer tokens, other browsers' sessions) stops working.
  const passwordHash = await hashPassword(input.newPassword);
  return db.transaction(async (tx) => {
    const changed = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    await auditInEveryAccount(tx, user, address, "password.changed");
    return requireRow(changed, `password change of user ${userId}`);
  });
}

/**
 * The account's password, asked again before a step a stolen session must not take alone
 * (changing it, turning two-factor on). A wrong one counts as a failed sign-in of the account
 * (the shared counter of sign-in-throttle.ts), VALIDATION_ERROR on the field `currentPassword`.
 */
export async function verifyCurrentPassword(db: Db, user: User, password: string): Promise<void> {
  // Counted before it is checked, so concurrent guesses cannot all pass the read of the count.
  await countSignInAttempt(db, user.email);
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw accountRefusal("VALIDATION_ERROR", "password-wrong", "the current password is wrong", [
      { path: "currentPassword", message: "the current password is wrong" },
    ]);
  }
  // With two-factor on, the password alone must not reset the budget for code guesses.
  if (!user.totpEnabledAt) await clearSignInFailures(db, user.email);
}

/** Ends every dashboard session and bearer token of the user, this one included. */
export async function signOutEverywhere(db: Db, userId: number): Promise<void> {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(users.id, userId));
}
