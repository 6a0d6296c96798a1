import { eq } from "drizzle-orm";
import { emailSchema } from "../../accounts/users/create-user";
import { AppError } from "../../base/errors";
import type { Db } from "../../db";
import { type Subscription, users } from "../../db/schema";
import { activatePlan } from "./activate-plan";

/** Operator action: give a user any plan (paid ones included). */
export async function grantPlan(db: Db, email: string, planId: string): Promise<Subscription> {
  const normalised = emailSchema.safeParse(email);
  if (!normalised.success) throw new AppError("VALIDATION_ERROR", `"${email}" is not an email address`);
  const [user] = await db.select().from(users).where(eq(users.email, normalised.data));
  if (!user) throw new AppError("NOT_FOUND", `no user with email ${normalised.data}`);
  return activatePlan(db, user.id, planId);
}
