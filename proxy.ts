import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { getConfig } from "@/lib/config";

/**
 * Sends a signed-out visit to /dashboard/** to /login, remembering where it was going. The
 * dashboard's layout checks the session again on the server: this is the friendly redirect,
 * not the lock.
 */
export async function proxy(req: NextRequest) {
  const config = getConfig();
  const token = await getToken({ req, secret: config.nextAuthSecret, secureCookie: config.siteUrl.startsWith("https://") }).catch(() => null);
  if (token?.sub) return NextResponse.next();
  const login = new URL("/login", req.nextUrl.origin);
  login.searchParams.set("callbackUrl", `${req.nextUrl.pathname}${req.nextUrl.search}`);
  return NextResponse.redirect(login);
}

export const config = { matcher: ["/dashboard", "/dashboard/:path*"] };
