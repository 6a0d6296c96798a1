import * as crypto from "node:crypto";
import type { Db } from "../db";
import { requireRow } from "../db/rows";
import { type ApiKey, apiKeys } from "../db/schema";

/** "bscp_live_" + 32 random bytes in base64url: 256 bits, recognisable in logs and secret scanners. */
export const API_KEY_PREFIX = "bscp_live_";

/** SHA-256, hex. Runs on every API request: the one-shot `crypto.hash` (Node ≥ 20.12) skips the Hash object. */
export function hashApiKey(key: string): string {
  return crypto.hash ? crypto.hash("sha256", key, "hex") : crypto.createHash("sha256").update(key).digest("hex");
}

export interface CreatedApiKey {
  record: ApiKey;
  /** Returned once, at creation; only its hash is stored. */
  key: string;
}

export async function createApiKey(db: Db, userId: number, name: string): Promise<CreatedApiKey> {
  const key = API_KEY_PREFIX + crypto.randomBytes(32).toString("base64url");
  const inserted = await db
    .insert(apiKeys)
    .values({ userId, name, prefix: key.slice(0, API_KEY_PREFIX.length + 6), keyHash: hashApiKey(key) })
    .returning();
  return { record: requireRow(inserted, "insert into api_keys"), key };
}
