/**
 * After the user's token version moved on a change the caller itself made (two-factor turned on or
 * off), every session ends, the caller's too; this gives the caller's browser a fresh session
 * cookie at the new version so that it stays signed in while every other one is out.
 */
import { eq } from "drizzle-orm";
import { cookies } from "next/headers";
import { encode } from "next-auth/jwt";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { users } from "../../db/schema";
import { DASHBOARD_SESSION_SECONDS } from "./auth-options";

const PLAIN = "next-auth.session-token";
const SECURE = "__Secure-next-auth.session-token";

export async function renewDashboardSession(db: Db, userId: number): Promise<void> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) return;
  const jar = await cookies();
  // The name next-auth chose (https sites use the __Secure- prefix); a fresh one by the site's scheme.
  const secure = jar.has(SECURE) || (!jar.has(PLAIN) && getConfig().siteUrl.startsWith("https://"));
  const value = await encode({
    token: { sub: String(user.id), email: user.email, ver: user.tokenVersion },
    secret: getConfig().nextAuthSecret,
    maxAge: DASHBOARD_SESSION_SECONDS,
  });
  jar.set(secure ? SECURE : PLAIN, value, { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: DASHBOARD_SESSION_SECONDS });
}
