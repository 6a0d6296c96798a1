import { z } from "zod";
import { issueBearerToken } from "@/lib/accounts/auth/bearer-token";
import { verifySignIn } from "@/lib/accounts/auth/sign-in";
import { readJson } from "@/lib/web/http/body";
import { clientAddress } from "@/lib/web/http/client-ip";
import { ok } from "@/lib/web/http/envelope";
import { withErrors } from "@/lib/web/http/handlers";
import { limitClient } from "@/lib/web/http/shared-limits";

// Shape only: a wrong value is 401 with one message, so nothing here tells which part was wrong.
const schema = z.object({
  email: z.string({ error: "email must be a string" }),
  password: z.string({ error: "password must be a string" }),
  /** With two-factor on: the current code from the authenticator app, or a recovery code. */
  code: z.string({ error: "code must be a string" }).max(32, { error: "code is too long" }).optional(),
});

/** POST /api/user/token {email, password, code?} → {token, expiresAt}: the bearer JWT for /api/user/*. */
export const POST = withErrors(async ({ req, db }) => {
  await limitClient("login", req.headers);
  const { email, password, code } = await readJson(req, schema);
  const user = await verifySignIn(db, email, password, code, clientAddress(req.headers));
  return ok(await issueBearerToken(user));
});
