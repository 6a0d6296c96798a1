import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { getConfig } from "@/lib/base/config";
import { listNetworks, networkConfig, rpcUrlsOf } from "@/lib/engine/chain/networks";
import { checkoutFrameAncestors } from "@/lib/web/checkout/embed-origin";
import { newScriptNonce, securityHeaders, walletRpcOrigins } from "@/lib/web/http/security-headers";

/**
 * Every page: its security headers (lib/web/http/security-headers.ts), with a fresh script nonce that
 * also goes on the request (the CSP request header, read by Next.js for its own scripts, and
 * `x-nonce`, read by the root layout). /dashboard/**: a signed-out visit goes to /login,
 * remembering where it was going — the dashboard's layout checks the session again on the
 * server: this is the friendly redirect, not the lock.
 */
export async function proxy(req: NextRequest) {
  const config = getConfig();
  const nonce = newScriptNonce();
  const headers = await pageSecurityHeaders(req, nonce);
  const forwarded = new Headers(req.headers);
  forwarded.set("x-nonce", nonce);
  forwarded.set("content-security-policy", headers["content-security-policy"] ?? "");
  let response = NextResponse.next({ request: { headers: forwarded } });
  const path = req.nextUrl.pathname;
  if (path === "/dashboard" || path.startsWith("/dashboard/")) {
    const token = await getToken({ req, secret: config.nextAuthSecret, secureCookie: config.siteUrl.startsWith("https://") }).catch(
      () => null,
    );
    if (!token?.sub) {
      const login = new URL("/login", req.nextUrl.origin);
      login.searchParams.set("callbackUrl", `${path}${req.nextUrl.search}`);
      response = NextResponse.redirect(login);
    }
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

async function pageSecurityHeaders(req: NextRequest, nonce: string): Promise<Record<string, string>> {
  const config = getConfig();
  const local = networkConfig("local");
  return securityHeaders({
    nonce,
    https: config.siteUrl.startsWith("https://"),
    dev: config.nodeEnv === "development",
    connectOrigins: walletRpcOrigins(
      listNetworks(),
      local ? (rpcUrlsOf(local)[0] ?? (config.localChain ? `http://127.0.0.1:${config.localChain.port}` : null)) : null,
    ),
    frameAncestors: await checkoutFrameAncestors(req.nextUrl.pathname, req.nextUrl.searchParams),
  });
}

// Pages only: API responses are JSON (they get nosniff from next.config.mjs), static files need none.
export const config = { matcher: ["/((?!api/|_next/static|_next/image|icon.svg|checkout.js|favicon.ico).*)"] };
