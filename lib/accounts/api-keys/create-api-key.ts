import * as crypto from "node:crypto";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type ApiKey, apiKeys } from "../../db/schema";
import { API_KEY_PREFIXES, API_SCOPES, type ApiKeyKind, type ApiScope } from "./scopes";

/**
 * A secret key: "bscp_live_" + 32 random bytes in base64url: 256 bits, recognisable in logs and
 * secret scanners. A publishable key starts "bscp_pk_live_" instead (lib/accounts/api-keys/scopes.ts).
 */
export const API_KEY_PREFIX = API_KEY_PREFIXES.secret;

/** SHA-256, hex. Runs on every API request: the one-shot `crypto.hash` (Node ≥ 20.12) skips the Hash object. */
export function hashApiKey(key: string): string {
  return crypto.hash ? crypto.hash("sha256", key, "hex") : crypto.createHash("sha256").update(key).digest("hex");
}

export interface CreatedApiKey {
  record: ApiKey;
  /** Returned once, at creation; only its hash is stored. */
  key: string;
}

export interface ApiKeyPowers {
  kind: ApiKeyKind;
  /** Already checked against the kind (scopesForNewKey). */
  scopes: readonly ApiScope[];
}

/**
 * Without `powers`: a secret key with every scope (seeds, benches). `createdBy`: the member who
 * makes it (default: the account's own user, its first owner).
 */
export async function createApiKey(
  db: Db,
  userId: number,
  name: string,
  { kind, scopes }: ApiKeyPowers = { kind: "secret", scopes: API_SCOPES },
  createdBy: number = userId,
): Promise<CreatedApiKey> {
  const prefix = API_KEY_PREFIXES[kind];
  const key = prefix + crypto.randomBytes(32).toString("base64url");
  const inserted = await db
    .insert(apiKeys)
    .values({ userId, createdBy, name, kind, scopes: [...scopes], prefix: key.slice(0, prefix.length + 6), keyHash: hashApiKey(key) })
    .returning();
  return { record: requireRow(inserted, "insert into api_keys"), key };
}
