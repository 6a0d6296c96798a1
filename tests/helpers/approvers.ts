/**
 * Approvers and requesters for the money-out tests: a fresh user added to an account with a role, signed in over the real routes, with
 * two-factor turned on (and a code for each next step) unless asked otherwise.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { POST as issueToken } from "@/app/api/user/token/route";
import { TOTP_STEP_SECONDS, totpCode, totpStep } from "@/lib/accounts/users/totp";
import { confirmEnrolment, startEnrolment } from "@/lib/accounts/users/two-factor";
import type { Db } from "@/lib/db";
import { accountMembers, type MemberRole, type User, users } from "@/lib/db/schema";
import { signUp } from "./accounts";
import { bearer, call } from "./http";

export const MEMBER_PASSWORD = "correct horse battery";

export interface TestMember {
  userId: number;
  email: string;
  /** Bearer headers in the account. */
  headers: Record<string, string>;
  /** The next two-factor code (each works once); undefined without two-factor. */
  code: () => string | undefined;
}

export const userRow = async (db: Db, id: number): Promise<User> => (await db.select().from(users).where(eq(users.id, id)))[0]!;

export async function addMember(db: Db, accountId: number, role: MemberRole, twoFactor = true): Promise<TestMember> {
  const user = await signUp(undefined, MEMBER_PASSWORD);
  const inAccount = (auth: Record<string, string>) => ({ ...auth, "x-account-id": String(accountId) });
  await db.insert(accountMembers).values({ accountId, userId: user.userId, role });
  if (!twoFactor) return { userId: user.userId, email: user.email, headers: inAccount(user.auth), code: () => undefined };
  const { secret } = await startEnrolment(db, await userRow(db, user.userId));
  const left = TOTP_STEP_SECONDS * 1000 - (Date.now() % (TOTP_STEP_SECONDS * 1000));
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  await confirmEnrolment(db, await userRow(db, user.userId), totpCode(secret, totpStep() - 1), MEMBER_PASSWORD);
  // Turning two-factor on signs every session out: sign in again with the current step's code.
  let step = totpStep();
  const signedIn = await call(issueToken, {
    method: "POST",
    body: { email: user.email, password: MEMBER_PASSWORD, code: totpCode(secret, step) },
  });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  return {
    userId: user.userId,
    email: user.email,
    headers: inAccount(bearer(signedIn.body.data.token)),
    code: () => totpCode(secret, ++step),
  };
}
