/** The sign-up page's registration, on the process's own database (the page's action holds no database handle). */
import { getDb } from "../../db";
import { type RegisteredUser, registerUser } from "./register-user";

/** Self sign-up with the same rules as POST /api/user/register (registerUser). */
export async function signUp(input: { email: string; password: string }): Promise<RegisteredUser> {
  return registerUser(await getDb(), input);
}
