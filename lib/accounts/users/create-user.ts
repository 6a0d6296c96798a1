import { z } from "zod";
import type { Db } from "../../db";
import { isUniqueViolation } from "../../db/errors";
import { requireRow } from "../../db/rows";
import { type User, users } from "../../db/schema";
import { hashPassword } from "./password";
import { accountRefusal } from "./reasons";

export const emailSchema = z
  .string({ error: "email must be a string" })
  .trim()
  .toLowerCase()
  .max(254, { error: "email is too long" })
  .pipe(z.email({ error: "email is not a valid address" }));

export const passwordSchema = z
  .string({ error: "password must be a string" })
  .min(10, { error: "password must be at least 10 characters" })
  .max(200, { error: "password must be at most 200 characters" });

export const credentialsSchema = z.object({ email: emailSchema, password: passwordSchema });

export async function createUser(db: Db, input: { email: string; password: string }): Promise<User> {
  const { email, password } = input;
  const passwordHash = await hashPassword(password);
  try {
    return requireRow(await db.insert(users).values({ email, passwordHash }).returning(), "insert into users");
  } catch (error) {
    if (isUniqueViolation(error)) throw accountRefusal("VALIDATION_ERROR", "email-taken", "an account with this email already exists");
    throw error;
  }
}
