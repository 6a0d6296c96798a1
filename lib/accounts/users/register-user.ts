import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { createUser } from "./create-user";
import { accountRefusal } from "./reasons";

export interface RegisteredUser {
  userId: number;
  email: string;
  createdAt: string;
}

/** Self sign-up (closed by REGISTRATION=closed; the operator's CLI still creates users). */
export async function registerUser(db: Db, input: { email: string; password: string }): Promise<RegisteredUser> {
  if (getConfig().registration === "closed") {
    throw accountRefusal(
      "REGISTRATION_CLOSED",
      "registration-closed",
      "sign-up is closed on this gateway; ask its operator for an account",
    );
  }
  const user = await createUser(db, input);
  return { userId: user.id, email: user.email, createdAt: user.createdAt.toISOString() };
}
