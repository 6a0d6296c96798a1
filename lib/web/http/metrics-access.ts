import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { clientAddress } from "./client-ip";

export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

/**
 * Who may read /api/metrics (docs/design.md §16): with METRICS_TOKEN, whoever sends it as a bearer
 * token; without it, loopback clients only. The client address is the one the limits use
 * (lib/web/http/client-ip.ts: the socket's peer, or X-Forwarded-For per TRUSTED_PROXY_HOPS); behind a proxy
 * on this machine every client looks local — which is why start-up warns an install with a real network to set the token.
 */
export function metricsAccess(headers: Headers, token: string | null): MetricsAccess {
  if (token !== null) {
    const sent = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    return sameSecret(sent, token) ? "allowed" : "unauthorized";
  }
  return isLoopback(clientAddress(headers)) ? "allowed" : "forbidden";
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function isLoopback(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, "").replace(/^::ffff:/i, "");
  if (isIP(plain) === 4) return plain.startsWith("127.");
  return plain === "::1";
}
