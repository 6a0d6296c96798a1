/**
 * Members of an account for the tests of who may: a user of their own in an account with
 * a role, two-factor turned on for them (and a current code whenever one is asked), and an API key
 * row written as an older release or another door would have left it.
 */

import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { hashApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { API_SCOPES } from "@/lib/accounts/api-keys/scopes";
import { issueBearerToken } from "@/lib/accounts/auth/bearer-token";
import { totpCode, totpStep } from "@/lib/accounts/users/totp";
import { confirmEnrolment, startEnrolment } from "@/lib/accounts/users/two-factor";
import { getDb } from "@/lib/db";
import { accountMembers, apiKeys, type MemberRole, type User, users } from "@/lib/db/schema";
import { signUp } from "./accounts";
import { bearer } from "./http";

export async function userRow(id: number): Promise<User> {
  const [user] = await (await getDb()).select().from(users).where(eq(users.id, id));
  if (!user) throw new Error(`no user ${id}`);
  return user;
}

export interface TestMember {
  userId: number;
  email: string;
  password: string;
  /** Bearer headers acting in the account (X-Account-Id). */
  auth: Record<string, string>;
  /** Bearer headers in no particular account (their home account by default). */
  own: Record<string, string>;
}

/** A new user, member of `accountId` with `role` (the owner of their own home account too). */
export async function memberWith(accountId: number, role: Exclude<MemberRole, "owner">): Promise<TestMember> {
  const user = await signUp();
  await (await getDb()).insert(accountMembers).values({ accountId, userId: user.userId, role });
  return { userId: user.userId, email: user.email, password: user.password, own: user.auth, auth: inAccount(user.auth, accountId) };
}

export const inAccount = (auth: Record<string, string>, accountId: number) => ({ ...auth, "x-account-id": String(accountId) });

/**
 * Turns two-factor on for the user (every earlier token ends with it) and answers fresh bearer
 * headers and `code()`: a current code each time it is called (the last accepted step is
 * forgotten first, so the tests need not wait for the next 30 s step).
 */
export async function withTwoFactor(
  userId: number,
  password: string,
): Promise<{ own: Record<string, string>; code: () => Promise<string> }> {
  const db = await getDb();
  const { secret } = await startEnrolment(db, await userRow(userId));
  await confirmEnrolment(db, await userRow(userId), totpCode(secret, totpStep()), password);
  const code = async () => {
    await db.update(users).set({ totpLastStep: null }).where(eq(users.id, userId));
    return totpCode(secret, totpStep());
  };
  return { own: bearer((await issueBearerToken(await userRow(userId))).token), code };
}

/** A live secret key of the account made by `createdBy`, with `scopes` (default every scope), written straight to the table. */
export async function keyRow(
  accountId: number,
  createdBy: number,
  scopes: readonly string[] = API_SCOPES,
): Promise<{ id: number; key: string }> {
  const key = `bscp_live_${randomBytes(32).toString("base64url")}`;
  const [row] = await (await getDb())
    .insert(apiKeys)
    .values({ userId: accountId, createdBy, name: "inserted", prefix: key.slice(0, 16), keyHash: hashApiKey(key), scopes: [...scopes] })
    .returning({ id: apiKeys.id });
  if (!row) throw new Error("no key inserted");
  return { id: row.id, key };
}
