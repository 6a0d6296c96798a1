/**
 * Idempotency-Key, the same way for every request that changes money (payment/create,
 * withdrawal/send): the first answer to a (key, API key, scope) is stored with a hash of the
 * request body, in the transaction that records the change, and replayed for 24 h; the same key
 * with another body is IDEMPOTENCY_CONFLICT. Domain-neutral: domain code and route handlers use
 * it alike, and it knows nothing of HTTP beyond the key's format.
 */

import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../db";
import { idempotencyRecords } from "../db/schema";
import { idempotencyRefusal } from "./reasons";

const TTL_MS = 24 * 3600 * 1000;

export interface StoredResponse<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/** Key order does not matter: {"a":1,"b":2} and {"b":2,"a":1} are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function parseIdempotencyKey(value: string | null): string | null {
  if (value === null) return null;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) {
    throw idempotencyRefusal("VALIDATION_ERROR", "idempotency-key-invalid", "Idempotency-Key must be 1–255 visible ASCII characters");
  }
  return value;
}

/**
 * Runs `work` once per (API key, scope, Idempotency-Key) within 24 h. The record is inserted in
 * the same transaction as the work: a concurrent duplicate blocks on the unique index until the
 * first commits, then replays its response; if the first fails, nothing is kept and a retry runs
 * afresh. The same key with a different body is IDEMPOTENCY_CONFLICT.
 */
export async function runIdempotent<T>(
  db: Db,
  request: { apiKeyId: number; scope: string; key: string; body: unknown },
  work: (tx: Db) => Promise<{ status: number; body: T }>,
): Promise<StoredResponse<T>> {
  const requestHash = createHash("sha256").update(canonicalJson(request.body)).digest("hex");
  const match = and(
    eq(idempotencyRecords.apiKeyId, request.apiKeyId),
    eq(idempotencyRecords.scope, request.scope),
    eq(idempotencyRecords.key, request.key),
  );
  return db.transaction(async (tx) => {
    const now = new Date();
    await tx.delete(idempotencyRecords).where(and(match, lt(idempotencyRecords.expiresAt, now)));
    const [inserted] = await tx
      .insert(idempotencyRecords)
      .values({
        apiKeyId: request.apiKeyId,
        scope: request.scope,
        key: request.key,
        requestHash,
        expiresAt: new Date(now.getTime() + TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ id: idempotencyRecords.id });
    if (!inserted) {
      const [existing] = await tx.select().from(idempotencyRecords).where(match);
      if (!existing || existing.requestHash !== requestHash) {
        throw idempotencyRefusal(
          "IDEMPOTENCY_CONFLICT",
          "idempotency-key-reused",
          "this Idempotency-Key was already used with a different request body",
        );
      }
      // biome-ignore lint/style/noNonNullAssertion: another transaction's record is visible only once committed, and the transaction that inserts one sets responseStatus before it commits
      return { status: existing.responseStatus!, body: existing.responseBody as T, replayed: true };
    }
    const result = await work(tx);
    await tx
      .update(idempotencyRecords)
      .set({ responseStatus: result.status, responseBody: result.body as object })
      .where(eq(idempotencyRecords.id, inserted.id));
    return { ...result, replayed: false };
  });
}
