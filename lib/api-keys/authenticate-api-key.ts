import { and, eq, isNull, sql } from "drizzle-orm";
import { requestDb } from "../db/client";
import { prepared } from "../db/prepared";
import type { Db } from "../db";
import { apiKeys, type ApiKey, type User } from "../db/schema";
import { AppError } from "../errors";
import { API_KEY_PREFIX, hashApiKey } from "./create-api-key";

/** Who is calling: the key and its user, by id (what handlers scope records by). */
export interface ApiKeyPrincipal {
  apiKey: Pick<ApiKey, "id" | "userId">;
  user: Pick<User, "id">;
}

const LAST_USED_RESOLUTION_MS = 60_000;
const lastUsedWrites = new Map<number, number>();

/**
 * The live key (not revoked) whose SHA-256 matches; UNAUTHORIZED otherwise. Runs on every API
 * request: it reads the two ids only (a key's user always exists: the key goes with it).
 */
export async function authenticateApiKey(db: Db, presented: string | null): Promise<ApiKeyPrincipal> {
  if (!presented) throw new AppError("UNAUTHORIZED", "x-api-key header is required");
  if (!presented.startsWith(API_KEY_PREFIX) || presented.length > 200) {
    throw new AppError("UNAUTHORIZED", "API key is invalid or revoked");
  }
  const byHash = prepared(requestDb(db), "api_key_by_hash", (d) =>
    d
      .select({ id: apiKeys.id, userId: apiKeys.userId })
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
      .prepare("api_key_by_hash"),
  );
  const [row] = await byHash.execute({ hash: hashApiKey(presented) });
  if (!row) throw new AppError("UNAUTHORIZED", "API key is invalid or revoked");
  touchLastUsed(db, row.id);
  return { apiKey: row, user: { id: row.userId } };
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
