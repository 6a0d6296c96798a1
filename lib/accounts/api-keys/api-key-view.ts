/**
 * An API key as lists and answers show it: never the key, never its hash. It names the member who
 * made it (every request made with it is theirs, docs/design.md §26) and, when their membership took
 * something from it, what and why: revoked because they left the account, or scopes taken away
 * when their role shrank.
 */

import { desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../../db";
import { type ApiKey, type ApiKeyRevokedReason, apiKeys, users } from "../../db/schema";
import { API_SCOPES, type ApiKeyKind, type ApiScope } from "./scopes";

export interface ApiKeyView {
  id: number;
  name: string;
  prefix: string;
  kind: ApiKeyKind;
  scopes: ApiScope[];
  /** The member who made it; null once that user no longer exists (the key then acts for nobody). */
  createdBy: { userId: number; email: string } | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** Why it was revoked, when not by hand: its creator left the account, or their new role left it no scope. */
  revokedReason: ApiKeyRevokedReason | null;
  /** The last time a change of its creator's role took scopes away: when, and the scopes it held before. */
  scopesReduced: { at: string; from: ApiScope[] } | null;
}

const inOrder = (scopes: readonly string[]): ApiScope[] => API_SCOPES.filter((scope) => scopes.includes(scope));

export function toApiKeyView(key: ApiKey, creator: { id: number; email: string } | null): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    kind: key.kind === "publishable" ? "publishable" : "secret",
    scopes: inOrder(key.scopes),
    createdBy: creator ? { userId: creator.id, email: creator.email } : null,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    revokedReason: key.revokedReason ?? null,
    scopesReduced: key.scopesReducedAt ? { at: key.scopesReducedAt.toISOString(), from: inOrder(key.scopesReducedFrom ?? []) } : null,
  };
}

/** The keys `where` selects, newest first, each with its creator's e-mail. */
export async function apiKeyViews(db: Db, where: SQL | undefined): Promise<ApiKeyView[]> {
  const rows = await db
    .select({ key: apiKeys, creatorEmail: users.email })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(where)
    .orderBy(desc(apiKeys.id));
  return rows.map(({ key, creatorEmail }) =>
    toApiKeyView(key, key.createdBy !== null && creatorEmail !== null ? { id: key.createdBy, email: creatorEmail } : null),
  );
}

/** Every key of the account, revoked ones included. */
export function listApiKeys(db: Db, accountId: number): Promise<ApiKeyView[]> {
  return apiKeyViews(db, eq(apiKeys.userId, accountId));
}
