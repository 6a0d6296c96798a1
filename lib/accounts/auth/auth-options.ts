import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getConfig } from "../../base/config";
import { AppError } from "../../base/errors";
import { getDb } from "../../db";
import { safeAuthRedirect } from "./safe-callback";
import { verifySignIn } from "./sign-in";

/** What the login form reads from a failed sign-in (next-auth passes an error thrown in authorize on). */
export const SIGN_IN_ERRORS = { twoFactorRequired: "TwoFactorRequired", twoFactorWrong: "TwoFactorWrong" } as const;

/** Dashboard sessions live a week; set explicitly, or next-auth stamps a 30-day exp. */
export const DASHBOARD_SESSION_SECONDS = 7 * 24 * 3600;

/** `addressOf`: the client's address from a sign-in request's headers, for the audit log (the sign-in route passes it). */
export function authOptions(addressOf?: (headers: Headers) => string): NextAuthOptions {
  return {
    secret: getConfig().nextAuthSecret,
    session: { strategy: "jwt", maxAge: DASHBOARD_SESSION_SECONDS },
    jwt: { maxAge: DASHBOARD_SESSION_SECONDS },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Two-factor code", type: "text" },
        },
        async authorize(credentials, req) {
          try {
            const address = addressOf && req?.headers ? addressOf(new Headers(req.headers as Record<string, string>)) : null;
            const user = await verifySignIn(await getDb(), credentials?.email, credentials?.password, credentials?.code, address);
            return { id: String(user.id), email: user.email, ver: user.tokenVersion };
          } catch (error) {
            if (error instanceof AppError && error.code === "UNAUTHORIZED" && error.details?.[0]?.path === "code") {
              throw new Error(
                error.reason === "two-factor-code-required" ? SIGN_IN_ERRORS.twoFactorRequired : SIGN_IN_ERRORS.twoFactorWrong,
              );
            }
            return null;
          }
        },
      }),
    ],
    callbacks: {
      // next-auth's own check passes "/x/..//evil.example" (it starts with one "/"): check the resolved URL instead.
      async redirect({ url, baseUrl }) {
        return safeAuthRedirect(url, baseUrl);
      },
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.email = user.email;
          token.ver = (user as { ver?: number }).ver ?? 0;
        }
        return token;
      },
      async session({ session, token }) {
        if (session.user) Object.assign(session.user, { id: token.sub, ver: typeof token.ver === "number" ? token.ver : 0 });
        return session;
      },
    },
  };
}
