/**
 * Idempotent requests, the same way for every request that moves money (payment create, refund,
 * withdrawal send): the first answer to an (owner, scope, key) is stored with a hash of the
 * request body, in the transaction that records the change, and replayed for 24 h; the same key
 * with another body is IDEMPOTENCY_CONFLICT. The owner is an API key (its `Idempotency-Key`
 * header) or a dashboard user (the form's request id: a double click is one request).
 * Domain-neutral: it knows nothing of HTTP beyond the key's format, and nothing of what the work does.
 */

import { createHash } from "node:crypto";
import { and, eq, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { idempotencyRecords } from "../../db/schema";
import { idempotencyRefusal } from "./reasons";

const TTL_MS = 24 * 3600 * 1000;

/** Whose key it is: keys of two owners never meet. */
export type IdempotencyOwner = { apiKeyId: number } | { userId: number };

export interface IdempotentRequest {
  owner: IdempotencyOwner;
  scope: string;
  key: string;
  body: unknown;
}

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
 * Runs `work` once per (owner, scope, key) within 24 h. The record is inserted in the same
 * transaction as the work: a concurrent duplicate blocks on the unique index until the first
 * commits, then replays its response; if the first fails, nothing is kept and a retry runs
 * afresh. The same key with a different body is IDEMPOTENCY_CONFLICT.
 */
export async function runIdempotent<T>(
  db: Db,
  request: IdempotentRequest,
  work: (tx: Db) => Promise<{ status: number; body: T }>,
): Promise<StoredResponse<T>> {
  const requestHash = hashOf(request.body);
  const match = recordOf(request);
  return db.transaction(async (tx) => {
    const now = new Date();
    await tx.delete(idempotencyRecords).where(and(match, lt(idempotencyRecords.expiresAt, now)));
    const [inserted] = await tx
      .insert(idempotencyRecords)
      .values({
        ...ownerColumns(request.owner),
        scope: request.scope,
        key: request.key,
        requestHash,
        expiresAt: new Date(now.getTime() + TTL_MS),
      })
      .onConflictDoNothing()
      .returning({ id: idempotencyRecords.id });
    if (!inserted) {
      const [existing] = await tx.select().from(idempotencyRecords).where(match);
      return replayOf<T>(existing, requestHash);
    }
    const result = await work(tx);
    await tx
      .update(idempotencyRecords)
      .set({ responseStatus: result.status, responseBody: result.body as object })
      .where(eq(idempotencyRecords.id, inserted.id));
    return { ...result, replayed: false };
  });
}

/**
 * The stored answer to a request, without running anything (null: none yet, or expired). A
 * request that must pass a check before its work runs (a dashboard form's two-factor code)
 * answers a repeat from here first: only a new request needs the check.
 */
export async function storedResponse<T>(db: Db, request: IdempotentRequest): Promise<StoredResponse<T> | null> {
  const [existing] = await db
    .select()
    .from(idempotencyRecords)
    .where(and(recordOf(request), sql`${idempotencyRecords.expiresAt} >= now()`));
  return existing ? replayOf<T>(existing, hashOf(request.body)) : null;
}

/**
 * Frees the keys whose stored answer has `field` = `value` (in `tx`, with the change that makes
 * the answer void): the owner may send the same request with the same key again, and it runs
 * afresh. Only for an answer that nothing was, or can still be, done for.
 */
export async function releaseIdempotency(
  tx: Db,
  released: { owner: IdempotencyOwner; scope: string; field: string; value: string },
): Promise<void> {
  await tx
    .delete(idempotencyRecords)
    .where(
      and(
        ownerMatch(released.owner),
        eq(idempotencyRecords.scope, released.scope),
        sql`${idempotencyRecords.responseBody}->>${released.field} = ${released.value}`,
      ),
    );
}

function hashOf(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}

function replayOf<T>(existing: typeof idempotencyRecords.$inferSelect | undefined, requestHash: string): StoredResponse<T> {
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

function recordOf(request: IdempotentRequest): SQL | undefined {
  return and(ownerMatch(request.owner), eq(idempotencyRecords.scope, request.scope), eq(idempotencyRecords.key, request.key));
}

function ownerMatch(owner: IdempotencyOwner): SQL {
  return "apiKeyId" in owner ? eq(idempotencyRecords.apiKeyId, owner.apiKeyId) : eq(idempotencyRecords.userId, owner.userId);
}

function ownerColumns(owner: IdempotencyOwner): { apiKeyId: number } | { userId: number } {
  return "apiKeyId" in owner ? { apiKeyId: owner.apiKeyId } : { userId: owner.userId };
}
