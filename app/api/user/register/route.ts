import { readJson } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";
import { limiters } from "@/lib/http/rate-limit";
import { credentialsSchema } from "@/lib/users/create-user";
import { registerUser } from "@/lib/users/register-user";

/** POST /api/user/register {email, password} → 201 {userId, email, createdAt} */
export const POST = withErrors(async ({ req, db }) => {
  limiters().register.consume(clientIp(req.headers));
  const input = await readJson(req, credentialsSchema);
  return ok(await registerUser(db, input), 201);
});
