import { credentialsSchema } from "@/lib/accounts/users/create-user";
import { registerUser } from "@/lib/accounts/users/register-user";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { limitClient } from "@/lib/web/http/shared-limits";

/** POST /api/user/register {email, password} → 201 {userId, email, createdAt} */
export const POST = withErrors(async ({ req, db }) => {
  await limitClient("register", req.headers);
  const input = await readJson(req, credentialsSchema);
  return ok(await registerUser(db, input), 201);
});
