import { randomBytes } from "node:crypto";
import { createUser, credentialsSchema } from "../../accounts/users/create-user";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { flag } from "./tokens";

export const USERS_USAGE = `  create-user <email> [--password <pw>]   create a merchant account (also when REGISTRATION=closed); prints a password if none is given`;

export async function createUserCommand(db: Db, args: string[]): Promise<string[]> {
  const [email, ...rest] = args;
  if (!email || email.startsWith("--")) throw new AppError("VALIDATION_ERROR", `usage:\n${USERS_USAGE}`);
  const given = flag(rest, "--password");
  const password = given ?? randomBytes(12).toString("base64url");
  const parsed = credentialsSchema.safeParse({ email, password });
  // biome-ignore lint/style/noNonNullAssertion: zod reports at least one issue for every failed parse
  if (!parsed.success) throw new AppError("VALIDATION_ERROR", parsed.error.issues[0]!.message);
  const user = await createUser(db, parsed.data);
  return [`created user ${user.id} ${user.email}${given ? "" : ` with password ${password} (shown once)`}`];
}
