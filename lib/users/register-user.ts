import type { Db } from "../db";
import { createUser } from "./create-user";

export interface RegisteredUser {
  userId: number;
  email: string;
  createdAt: string;
}

export async function registerUser(db: Db, input: { email: string; password: string }): Promise<RegisteredUser> {
  const user = await createUser(db, input);
  return { userId: user.id, email: user.email, createdAt: user.createdAt.toISOString() };
}
