import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { limitClient } from "@/lib/http/shared-limits";
import { credentialsSchema } from "@/lib/users/create-user";
import { registerUser } from "@/lib/users/register-user";

/** POST /api/user/register {email, password} → 201 {userId, email, createdAt} */
export const POST = withErrors(async ({ req, db }) => {
  await limitClient("register", req.headers);
  const input = await readJson(req, credentialsSchema);
  return ok(await registerUser(db, input), 201);
});
