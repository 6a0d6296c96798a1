import { eq } from "drizzle-orm";
import type { NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { getConfig } from "../../base/config";
import type { Db } from "../../db";
import { type User, users } from "../../db/schema";
import { accountRefusal } from "../users/reasons";
import { isCurrentVersion, readBearerToken } from "./bearer-token";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The user behind `Authorization: Bearer <JWT>` or, without that header, the dashboard session
 * cookie. A cookie-authenticated mutation must come from the site's own origin (CSRF).
 */
export async function authenticateUser(db: Db, req: NextRequest): Promise<User> {
  const config = getConfig();
  const authorization = req.headers.get("authorization");
  let subject: string | undefined;
  let version: unknown;
  if (authorization !== null) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization.trim())?.[1];
    const claims = token ? await readBearerToken(token) : null;
    if (!claims) throw accountRefusal("UNAUTHORIZED", "bearer-token-invalid", "bearer token is missing, invalid or expired");
    subject = claims.sub;
    version = claims.ver;
  } else {
    const claims = await getToken({
      req,
      secret: config.nextAuthSecret,
      secureCookie: config.siteUrl.startsWith("https://"),
    });
    if (!claims?.sub || (typeof claims.exp === "number" && claims.exp * 1000 <= Date.now())) {
      throw accountRefusal("UNAUTHORIZED", "sign-in-required", "sign in, or send Authorization: Bearer <token> from POST /api/user/token");
    }
    if (MUTATING.has(req.method) && !isSameOrigin(req, config.siteUrl)) {
      throw accountRefusal(
        "UNAUTHORIZED",
        "cross-site-refused",
        "cross-site request refused: send it from the dashboard or with a bearer token",
      );
    }
    subject = claims.sub;
    version = claims.ver;
  }
  const id = Number(subject);
  const [user] = Number.isSafeInteger(id) ? await db.select().from(users).where(eq(users.id, id)) : [];
  if (!user) throw accountRefusal("UNAUTHORIZED", "account-gone", "the account of this token no longer exists");
  if (!isCurrentVersion({ ver: version }, user)) {
    throw accountRefusal(
      "UNAUTHORIZED",
      "token-revoked",
      "this token was revoked (the password was changed, or every session signed out); sign in again",
    );
  }
  return user;
}

function isSameOrigin(req: NextRequest, siteUrl: string): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return false;
  return origin === new URL(siteUrl).origin || origin === req.nextUrl.origin;
}
