import { z } from "zod";
import { issueBearerToken } from "@/lib/auth/bearer-token";
import { verifyCredentials } from "@/lib/auth/verify-credentials";
import { readJson } from "@/lib/http/body";
import { clientIp } from "@/lib/http/client-ip";
import { limiters } from "@/lib/http/rate-limit";
import { ok } from "@/lib/http/envelope";
import { withErrors } from "@/lib/http/handlers";

// Shape only: a wrong value is 401 with one message, so nothing here tells which part was wrong.
const schema = z.object({
  email: z.string({ error: "email must be a string" }),
  password: z.string({ error: "password must be a string" }),
});

/** POST /api/user/token {email, password} → {token, expiresAt}: the bearer JWT for /api/user/*. */
export const POST = withErrors(async ({ req, db }) => {
  limiters().login.consume(clientIp(req.headers));
  const { email, password } = await readJson(req, schema);
  const user = await verifyCredentials(db, email, password);
  return ok(await issueBearerToken(user));
});
