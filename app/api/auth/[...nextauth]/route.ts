import { type NextRequest, NextResponse } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/accounts/auth/auth-options";
import { getConfig } from "@/lib/base/config";
import { AppError } from "@/lib/base/errors";
import { ensureStarted } from "@/lib/ops/startup/startup";
import { clientAddress } from "@/lib/web/http/client-ip";
import { limitClient } from "@/lib/web/http/shared-limits";

type Context = { params: Promise<{ nextauth: string[] }> };

// Options are built per request: they read the configuration, which is parsed at start-up.
// Start-up first: a sign-in reads the database (this route is its edge, as withErrors is for the others).
async function handler(req: NextRequest, ctx: Context): Promise<Response> {
  await ensureStarted();
  return NextAuth(req, ctx, authOptions(clientAddress));
}

/**
 * The credentials sign-in shares the per-address limit of POST /api/user/token. The 429 carries
 * the error envelope and, for next-auth's client, a `url` naming the error.
 */
async function post(req: NextRequest, ctx: Context): Promise<Response> {
  if (req.nextUrl.pathname.endsWith("/callback/credentials")) {
    await ensureStarted(); // the limit's counters are in the database
    try {
      await limitClient("login", req.headers);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const url = `${getConfig().siteUrl}/login?error=RateLimited`;
      return NextResponse.json(
        { success: false, error: { code: error.code, message: error.message, ...(error.reason ? { reason: error.reason } : {}) }, url },
        { status: error.status, headers: error.headers },
      );
    }
  }
  return handler(req, ctx);
}

export { handler as GET, post as POST };
