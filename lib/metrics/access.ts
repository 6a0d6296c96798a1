import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import { clientIp } from "../http/client-ip";

export type MetricsAccess = "allowed" | "unauthorized" | "forbidden" | "token-required";

/**
 * Who may read /api/metrics. With METRICS_TOKEN: whoever sends it as a bearer token. Without it,
 * only on a development install (`local` the only network): loopback clients. The client address
 * comes from X-Forwarded-For, which a client talking to Node directly (or through a proxy that does
 * not append it) can choose — good enough to keep a laptop's metrics local, not for real money, so
 * an install with a real network serves metrics to token holders only.
 */
export function metricsAccess(headers: Headers, token: string | null, options: { developmentOnly: boolean }): MetricsAccess {
  if (token !== null) {
    const sent = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    return sameSecret(sent, token) ? "allowed" : "unauthorized";
  }
  if (!options.developmentOnly) return "token-required";
  return isLoopback(clientIp(headers)) ? "allowed" : "forbidden";
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
