import { and, eq, isNull, sql } from "drizzle-orm";
import { prepared } from "../db/prepared";
import type { Db } from "../db";
import { apiKeys, users, type ApiKey, type User } from "../db/schema";
import { AppError } from "../errors";
import { API_KEY_PREFIX, hashApiKey } from "./create-api-key";

export interface ApiKeyPrincipal {
  apiKey: ApiKey;
  user: User;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const lastUsedWrites = new Map<number, number>();

/** The live key (not revoked) whose SHA-256 matches, with its user; UNAUTHORIZED otherwise. */
export async function authenticateApiKey(db: Db, presented: string | null): Promise<ApiKeyPrincipal> {
  if (!presented) throw new AppError("UNAUTHORIZED", "x-api-key header is required");
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 200) {
    throw new AppError("UNAUTHORIZED", "API key is invalid or revoked");
  }
  const byHash = prepared(db, "api_key_by_hash", (d) =>
    d
      .select({ apiKey: apiKeys, user: users })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
      .prepare("api_key_by_hash"),
  );
  const [row] = await byHash.execute({ hash: hashApiKey(presented) });
  if (!row) throw new AppError("UNAUTHORIZED", "API key is invalid or revoked");
  touchLastUsed(db, row.apiKey.id);
  return row;
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
