import { and, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db";
import { requestDb } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type ApiKey, accountMembers, apiKeys, type MemberRole, type User, users } from "../../db/schema";
import { heldForTwoFactor } from "../roles/roles";
import { accountRefusal } from "../users/reasons";
import { hashApiKey } from "./create-api-key";
import { apiKeyRefusal } from "./reasons";
import { API_KEY_PREFIXES, type ApiKeyKind, type ApiScope, effectiveScopes } from "./scopes";

/** Who is calling: the key (its kind and scopes) and its user, by id (what handlers scope records by). */
export interface ApiKeyPrincipal {
  /** With its name and prefix: the audit log names the key that acted. */
  apiKey: Pick<ApiKey, "id" | "userId" | "name" | "prefix"> & {
    kind: ApiKeyKind;
    /**
     * What the key may do on this request: its stored scopes that its creator's current role still
     * holds (docs/design.md §26) — a role changed since the key was made bounds it at once.
     */
    scopes: ApiScope[];
    /** The member who made the key: every request made with it is theirs (docs/design.md §26). */
    createdBy: number;
    /** That member's role in the key's account now (a route asking a permission of the person asks this). */
    creatorRole: MemberRole;
  };
  user: Pick<User, "id">;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const lastUsedWrites = new Map<number, number>();

/**
 * A key that authenticated is trusted again for this long without asking the database: a query is
 * a large share of a short API call's CPU, and a shop polling status sends many calls a second.
 * A revocation made by this process takes effect at once (`forgetAuthenticatedKeys`); one made by
 * another instance of a scaled-out deployment refuses every request that arrives this long after
 * it committed. The time counts from when the lookup *started*: an answer read before the
 * revocation was read after that moment, so it is never trusted past the bound, however slow the
 * lookup was.
 */
export const AUTHENTICATED_KEY_TTL_MS = 1_000;
const MAX_REMEMBERED_KEYS = 10_000;

type Remembered = { principal: ApiKeyPrincipal; until: number };
/** `generation` moves on every forget, so a lookup that started before one cannot store its answer. */
type KeyCache = { entries: Map<string, Remembered>; generation: number };
const CACHE_KEY = Symbol.for("bsc-pay.authenticated-keys"); // one per process, whichever bundle asks
type Holder = { [CACHE_KEY]?: KeyCache };

function keyCache(): KeyCache {
  const holder = globalThis as Holder;
  holder[CACHE_KEY] ??= { entries: new Map(), generation: 0 };
  return holder[CACHE_KEY];
}

/** After a revocation: every key is looked up in the database again. */
export function forgetAuthenticatedKeys(): void {
  const cache = keyCache();
  cache.generation++;
  cache.entries.clear();
}

const creators = alias(users, "creator");
const accounts = alias(users, "account");

/**
 * The live key (not revoked) whose SHA-256 matches, acting with at most its creator's current role;
 * UNAUTHORIZED when there is none or its creator is no longer a member of the key's account, and
 * FORBIDDEN `two-factor-required-by-account` while the account requires two-factor of the
 * creator's role and they have none. Runs on every API request: one query by unique and primary
 * keys (the key, the creator's membership, the creator, the account). Only keys that
 * authenticated are remembered, so unknown keys cannot fill the cache.
 */
export async function authenticateApiKey(db: Db, presented: string | null): Promise<ApiKeyPrincipal> {
  if (!presented) throw apiKeyRefusal("UNAUTHORIZED", "api-key-missing", "x-api-key header is required");
  const kind = presentedKind(presented);
  if (kind === null || presented.length > 200) {
    throw apiKeyRefusal("UNAUTHORIZED", "api-key-invalid", "API key is invalid or revoked");
  }
  const hash = hashApiKey(presented);
  const cache = keyCache();
  const remembered = cache.entries.get(hash);
  if (remembered && remembered.until > Date.now()) {
    touchLastUsed(db, remembered.principal.apiKey.id);
    return remembered.principal;
  }
  const generation = cache.generation;
  const lookupStartedAt = Date.now();
  const byHash = prepared(requestDb(db), "api_key_by_hash", (d) =>
    d
      .select({
        id: apiKeys.id,
        userId: apiKeys.userId,
        createdBy: apiKeys.createdBy,
        kind: apiKeys.kind,
        scopes: apiKeys.scopes,
        name: apiKeys.name,
        prefix: apiKeys.prefix,
        creatorRole: accountMembers.role,
        creatorTotpEnabledAt: creators.totpEnabledAt,
        membersNeedTwoFactor: accounts.membersNeedTwoFactor,
      })
      .from(apiKeys)
      .innerJoin(accounts, eq(accounts.id, apiKeys.userId))
      .leftJoin(accountMembers, and(eq(accountMembers.accountId, apiKeys.userId), eq(accountMembers.userId, apiKeys.createdBy)))
      .leftJoin(creators, eq(creators.id, apiKeys.createdBy))
      .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
      .prepare("api_key_by_hash"),
  );
  const [row] = await byHash.execute({ hash });
  // The stored kind decides; a key whose prefix claims another kind is not one we issued. A key
  // whose creator is gone, or no longer a member of the account (removed before their keys were
  // revoked with them, or by a path that did not), acts for nobody.
  if (!row || row.kind !== kind || row.createdBy === null || row.creatorRole === null) {
    cache.entries.delete(hash);
    throw apiKeyRefusal("UNAUTHORIZED", "api-key-invalid", "API key is invalid or revoked");
  }
  if (heldForTwoFactor({ membersNeedTwoFactor: row.membersNeedTwoFactor }, { totpEnabledAt: row.creatorTotpEnabledAt }, row.creatorRole)) {
    cache.entries.delete(hash);
    throw accountRefusal(
      "FORBIDDEN",
      "two-factor-required-by-account",
      "the account requires two-factor authentication of the member who made this key, and they have not turned it on: their keys work again once they do",
    );
  }
  const principal: ApiKeyPrincipal = {
    apiKey: {
      id: row.id,
      userId: row.userId,
      createdBy: row.createdBy,
      creatorRole: row.creatorRole,
      kind,
      scopes: effectiveScopes(row.scopes, row.creatorRole),
      name: row.name,
      prefix: row.prefix,
    },
    user: { id: row.userId },
  };
  if (cache.generation === generation) {
    cache.entries.delete(hash); // re-inserted last, so the oldest entry is the first in the map
    // biome-ignore lint/style/noNonNullAssertion: the map holds at least MAX_REMEMBERED_KEYS (> 0) entries here, so it has a first key
    if (cache.entries.size >= MAX_REMEMBERED_KEYS) cache.entries.delete(cache.entries.keys().next().value!);
    cache.entries.set(hash, { principal, until: lookupStartedAt + AUTHENTICATED_KEY_TTL_MS });
  }
  touchLastUsed(db, row.id);
  return principal;
}

function presentedKind(presented: string): ApiKeyKind | null {
  if (presented.startsWith(API_KEY_PREFIXES.publishable)) return "publishable";
  if (presented.startsWith(API_KEY_PREFIXES.secret)) return "secret";
  return null;
}

/** lastUsedAt is informational: written at most once a minute per key, never awaited by the request. */
function touchLastUsed(db: Db, apiKeyId: number): void {
  const now = Date.now();
  if (now - (lastUsedWrites.get(apiKeyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
  lastUsedWrites.set(apiKeyId, now);
  db.update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(apiKeys.id, apiKeyId))
    .catch(() => lastUsedWrites.delete(apiKeyId));
}
