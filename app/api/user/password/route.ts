import { eq } from "drizzle-orm";
import { issueBearerToken } from "@/lib/auth/bearer-token";
import { users } from "@/lib/db/schema";
import { readJson } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { withUser } from "@/lib/http/handlers";
import { changePassword, changePasswordSchema } from "@/lib/users/change-password";

/**
 * POST /api/user/password {currentPassword, newPassword} → {token, expiresAt}: every earlier
 * bearer token and dashboard session stops working (the caller's too), so the answer carries a
 * fresh token.
 */
export const POST = withUser(async ({ req, db, user }) => {
  await changePassword(db, user.id, await readJson(req, changePasswordSchema));
  const [changed] = await db.select().from(users).where(eq(users.id, user.id));
  return ok(await issueBearerToken(changed!));
});
