/**
 * Members of a test account, as the insider tests play them: a user with a role in the account,
 * their request headers (bearer + X-Account-Id), their principal for lib calls, and — with
 * two-factor on — a fresh code per call (each code works once).
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { POST as issueToken } from "@/app/api/user/token/route";
import type { Principal } from "@/lib/accounts/members/principal";
import { TOTP_STEP_SECONDS, totpCode, totpStep } from "@/lib/accounts/users/totp";
import { confirmEnrolment, startEnrolment } from "@/lib/accounts/users/two-factor";
import type { Db } from "@/lib/db";
import { accountMembers, type MemberRole, type User, users } from "@/lib/db/schema";
import { signUp } from "./accounts";
import { bearer, call } from "./http";

const PASSWORD = "correct horse battery";

export interface TestMember {
  userId: number;
  email: string;
  /** Bearer token and X-Account-Id of the account. */
  headers: Record<string, string>;
  /** The member's principal in the account (reads the user row again: two-factor may have changed). */
  principal: () => Promise<Principal>;
  /** The next current two-factor code; undefined when two-factor is off. */
  code: () => string | undefined;
}

export async function userRow(db: Db, id: number): Promise<User> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error(`user ${id} not found`);
  return row;
}

/** A new user made a member of `accountId` with `role`; two-factor on unless `twoFactor` is false. */
export async function addMember(db: Db, accountId: number, role: MemberRole, options: { twoFactor?: boolean } = {}): Promise<TestMember> {
  const user = await signUp(undefined, PASSWORD);
  await db.insert(accountMembers).values({ accountId, userId: user.userId, role });
  const inAccount = (auth: Record<string, string>) => ({ ...auth, "x-account-id": String(accountId) });
  const principal = async (): Promise<Principal> => ({
    account: await userRow(db, accountId),
    member: await userRow(db, user.userId),
    role,
    address: null,
    enrolOnly: false,
  });
  if (options.twoFactor === false) return { ...user, headers: inAccount(user.auth), principal, code: () => undefined };
  const { secret } = await startEnrolment(db, await userRow(db, user.userId));
  // Far enough from the step's end that the codes below stay current while they are used.
  const left = TOTP_STEP_SECONDS * 1000 - (Date.now() % (TOTP_STEP_SECONDS * 1000));
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  await confirmEnrolment(db, await userRow(db, user.userId), totpCode(secret, totpStep() - 1), PASSWORD);
  // Turning two-factor on signs every session out: sign in again with the current step's code.
  let step = totpStep();
  const signedIn = await call(issueToken, {
    method: "POST",
    body: { email: user.email, password: PASSWORD, code: totpCode(secret, step) },
  });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  return { ...user, headers: inAccount(bearer(signedIn.body.data.token)), principal, code: () => totpCode(secret, ++step) };
}
