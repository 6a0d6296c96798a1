/**
 * What an API key may do (docs/design.md §21). A secret key lives on the merchant's server and may
 * hold every scope; a publishable key may sit in browser code, so it can only create and read
 * payments — never move money out — and it is the only kind whose answers a browser may read
 * (CORS). Scopes are checked per route in lib/web/http/handlers.ts (withApiKey).
 *
 * A key is its creator's (docs/design.md §26): a member grants only the scopes their role holds
 * (SCOPE_PERMISSION), and a key acts with at most its creator's *current* role (effectiveScopes,
 * applied on every request by authenticate-api-key.ts).
 */

import type { MemberRole } from "../../db/schema";
import { type Permission, roleAllows, rolesWith } from "../roles/roles";
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

/** The permission a member's role must hold to grant a scope, and that a key's creator must still hold for the key to use it. */
export const SCOPE_PERMISSION: Record<ApiScope, Permission> = {
  "payments:write": "payments",
  "payments:read": "read",
  refunds: "money",
  withdrawals: "money",
  payouts: "money",
};

/** The scopes that send money out: a key holding one is made only with its creator's two-factor code. */
export const MONEY_SCOPES: readonly ApiScope[] = ["refunds", "withdrawals", "payouts"];

export function isMoneyScope(scope: ApiScope): boolean {
  return MONEY_SCOPES.includes(scope);
}

/** Every scope a member of this role may grant, in canonical order. */
export function scopesOfRole(role: MemberRole): ApiScope[] {
  return API_SCOPES.filter((scope) => roleAllows(role, SCOPE_PERMISSION[scope]));
}

/** What a key may do now: the scopes stored on it that its creator's current role still holds. */
export function effectiveScopes(stored: readonly string[], role: MemberRole): ApiScope[] {
  return API_SCOPES.filter((scope) => stored.includes(scope) && roleAllows(role, SCOPE_PERMISSION[scope]));
}

/** Who makes a key, as far as its scopes go: their role in the account, and whether they have two-factor on. */
export interface KeyCreator {
  role: MemberRole;
  twoFactor: boolean;
}

/**
 * The scopes a new key gets, in canonical order: those asked for, else every scope its kind may
 * hold — bounded, when the creator is given, by their role (asking for more is FORBIDDEN
 * `scope-exceeds-role`), and by default without the money scopes while they have no two-factor
 * (a key holding one needs their code: see issueApiKey).
 */
export function scopesForNewKey(kind: ApiKeyKind, asked: readonly ApiScope[] | undefined, creator?: KeyCreator): ApiScope[] {
  const allowed: readonly ApiScope[] = kind === "publishable" ? PUBLISHABLE_SCOPES : API_SCOPES;
  if (asked === undefined) {
    if (!creator) return [...allowed];
    const role = scopesOfRole(creator.role);
    return allowed.filter((scope) => role.includes(scope) && (creator.twoFactor || !isMoneyScope(scope)));
  }
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
  if (creator) {
    const role = scopesOfRole(creator.role);
    const beyond = API_SCOPES.filter((scope) => asked.includes(scope) && !role.includes(scope));
    if (beyond.length > 0) throw scopeExceedsRole(creator.role, beyond);
  }
  return API_SCOPES.filter((scope) => asked.includes(scope));
}

/** FORBIDDEN `scope-exceeds-role`, naming the scopes, the permission each needs and who holds it. */
export function scopeExceedsRole(role: MemberRole, scopes: readonly ApiScope[], why?: string) {
  const needs = [...new Set(scopes.map((scope) => SCOPE_PERMISSION[scope]))];
  const holders = needs.map((permission) => `${permission} is held by ${rolesWith(permission).join(", ")}`).join("; ");
  const named = scopes.map((s) => `\`${s}\``).join(", ");
  return apiKeyRefusal(
    "FORBIDDEN",
    "scope-exceeds-role",
    why ?? `your role (${role}) cannot grant ${named}: a key never does more than the member who made it (${holders})`,
    [{ path: "scopes", message: why ?? `your role (${role}) may grant ${scopesOfRole(role).join(", ")}` }],
  );
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

/**
 * FORBIDDEN `scope-exceeds-role` unless the key's creator's current role holds `permission`: a key
 * holding a scope still does only what the member who made it may (merchantWallet needs
 * `payout-targets`, whatever scopes the key holds).
 */
export function requireCreatorPermission(apiKey: { creatorRole: MemberRole }, permission: Permission, doing: string): void {
  if (roleAllows(apiKey.creatorRole, permission)) return;
  throw apiKeyRefusal(
    "FORBIDDEN",
    "scope-exceeds-role",
    `the member who made this API key is ${apiKey.creatorRole === "admin" ? "an" : "a"} ${apiKey.creatorRole} here, and only ${rolesWith(permission).join(", ")} may ${doing}`,
  );
}
