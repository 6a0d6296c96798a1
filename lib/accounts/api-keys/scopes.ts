/**
 * What an API key may do (docs/design.md §21). A secret key lives on the merchant's server and may
 * hold every scope; a publishable key may sit in browser code, so it can only create and read
 * payments — never move money out — and it is the only kind whose answers a browser may read
 * (CORS). Scopes are checked per route in lib/web/http/handlers.ts (withApiKey).
 */

import { apiKeyRefusal } from "./reasons";

export const API_SCOPES = ["payments:write", "payments:read", "refunds", "withdrawals", "payouts"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_KEY_KINDS = ["secret", "publishable"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** The most a publishable key may hold (and what it gets when none are named). */
export const PUBLISHABLE_SCOPES: readonly ApiScope[] = ["payments:write", "payments:read"];

/**
 * Key prefixes: a publishable key is told apart from a secret one at a glance (and by secret
 * scanners). Neither is a prefix of the other.
 */
export const API_KEY_PREFIXES: Record<ApiKeyKind, string> = { secret: "bscp_live_", publishable: "bscp_pk_live_" };

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

/** The scopes a new key gets: those asked for, else every scope its kind may hold; in canonical order. */
export function scopesForNewKey(kind: ApiKeyKind, asked: readonly ApiScope[] | undefined): ApiScope[] {
  const allowed: readonly ApiScope[] = kind === "publishable" ? PUBLISHABLE_SCOPES : API_SCOPES;
  if (asked === undefined) return [...allowed];
  const refused = asked.filter((scope) => !allowed.includes(scope));
  if (refused.length > 0) {
    throw apiKeyRefusal(
      "VALIDATION_ERROR",
      "api-key-scope-not-allowed",
      `a ${kind} key cannot hold ${refused.map((s) => `\`${s}\``).join(", ")}`,
      [{ path: "scopes", message: `a ${kind} key may hold only ${allowed.join(", ")}` }],
    );
  }
  if (asked.length === 0) {
    throw apiKeyRefusal("VALIDATION_ERROR", "api-key-scopes-empty", "scopes must name at least one scope", [
      { path: "scopes", message: "name at least one scope" },
    ]);
  }
  return API_SCOPES.filter((scope) => asked.includes(scope));
}

/** UNAUTHORIZED naming the scope when the key lacks it (the coordinator's choice: §5 has no 403 for this). */
export function requireScope(apiKey: { scopes: readonly string[] }, scope: ApiScope, doing?: string): void {
  if (apiKey.scopes.includes(scope)) return;
  throw apiKeyRefusal(
    "UNAUTHORIZED",
    "api-key-scope-missing",
    `this API key lacks the \`${scope}\` scope${doing ? ` (needed to ${doing})` : ""}`,
  );
}
