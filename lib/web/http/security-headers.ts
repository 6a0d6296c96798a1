/**
 * Security headers of every page (docs/design.md §18, §21). Scripts run only with this request's nonce
 * ('nonce-…' 'strict-dynamic'): Next.js reads the nonce from the CSP request header proxy.ts sets
 * and puts it on its own scripts, the root layout puts it on the theme script, and a script those
 * load is trusted through 'strict-dynamic'; an injected <script> or inline handler has no nonce and
 * does not run ('self' is only for browsers without CSP 3). Styles keep 'unsafe-inline': Next.js,
 * Radix and the toaster set inline styles, and a style cannot run code. Connections go to this
 * site and the RPCs the checkout's wallet reads. A page
 * may be framed by nobody, except the checkout's embed (?embed=1) by the origins its merchant
 * whitelisted. HSTS only when the site is served over https (a browser ignores it otherwise,
 * and it must never pin a plain-http development host).
 */

import { bsc, bscTestnet } from "viem/chains";

export interface PageSecurity {
  /** This request's script nonce (base64, ≥ 128 random bits); a fresh one per request. */
  nonce: string;
  https: boolean;
  dev: boolean;
  /** Origins the page may open connections to, beside its own (wallet RPCs). */
  connectOrigins: readonly string[];
  /** Who may frame the page: none, or these origins (the checkout embed). */
  frameAncestors: readonly string[];
}

export function securityHeaders(page: PageSecurity): Record<string, string> {
  const connect = ["'self'", ...new Set(page.connectOrigins), ...(page.dev ? ["ws:", "wss:"] : [])];
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${page.nonce}' 'strict-dynamic'${page.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${page.frameAncestors.length === 0 ? "'none'" : page.frameAncestors.join(" ")}`,
    ...(page.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    // Old browsers without frame-ancestors: no framing at all, unless the embed is allowed somewhere.
    ...(page.frameAncestors.length === 0 ? { "x-frame-options": "DENY" } : {}),
    ...(page.https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/** A fresh script nonce: 128 random bits, base64 (the characters Next.js accepts in 'nonce-…'). */
export function newScriptNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** Origins of the public RPCs the checkout's wallet (wagmi) uses for the chains this site serves. */
export function walletRpcOrigins(networks: readonly { name: string; chainId: number }[], localRpcUrl: string | null): string[] {
  const urls: string[] = [];
  for (const network of networks) {
    if (network.chainId === bsc.id) urls.push(...bsc.rpcUrls.default.http);
    else if (network.chainId === bscTestnet.id) urls.push(...bscTestnet.rpcUrls.default.http);
    // Any other chain id is a development chain: the wallet reads the local node (as the checkout does).
    else urls.push(localRpcUrl ?? "http://127.0.0.1:8545");
  }
  return [...new Set(urls.map((u) => new URL(u).origin))];
}
