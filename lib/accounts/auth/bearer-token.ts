import { decode, encode } from "next-auth/jwt";
import { getConfig } from "../../base/config";
import type { User } from "../../db/schema";

/** Claims of the bearer JWT and the dashboard session (next-auth JWT, encrypted with NEXTAUTH_SECRET). */
export interface UserClaims {
  sub: string;
  email: string;
  /** The user's token version when it was issued (a token without one counts as version 0). */
  ver: number;
}

/** A token is the user's only while its version is the user's current one (password change, sign out everywhere). */
export function isCurrentVersion(claims: { ver?: unknown }, user: Pick<User, "tokenVersion">): boolean {
  return (typeof claims.ver === "number" ? claims.ver : 0) === user.tokenVersion;
}

export async function issueBearerToken(user: Pick<User, "id" | "email" | "tokenVersion">): Promise<{ token: string; expiresAt: string }> {
  const config = getConfig();
  const maxAge = config.bearerTokenTtlSeconds;
  const token = await encode({
    token: { sub: String(user.id), email: user.email, ver: user.tokenVersion },
    secret: config.nextAuthSecret,
    maxAge,
  });
  // encode() stamps exp = now + maxAge in whole seconds; report the same instant.
  const expiresAt = new Date(((Date.now() / 1000) | 0) * 1000 + maxAge * 1000).toISOString();
  return { token, expiresAt };
}

/** The claims of a valid, unexpired token, or null. */
export async function readBearerToken(token: string): Promise<UserClaims | null> {
  try {
    const claims = await decode({ token, secret: getConfig().nextAuthSecret });
    if (!claims || typeof claims.sub !== "string" || typeof claims.exp !== "number") return null;
    if (claims.exp * 1000 <= Date.now()) return null; // no grace period beyond exp
    return { sub: claims.sub, email: String(claims.email ?? ""), ver: typeof claims.ver === "number" ? claims.ver : 0 };
  } catch {
    return null;
  }
}
