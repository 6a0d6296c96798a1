import { and, count, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { AppError, commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type ApiKey, apiKeys, users } from "../../db/schema";
import { type AuditOrigin, audit } from "../audit/audit-origin";
import { forgetAuthenticatedKeys } from "./authenticate-api-key";
import { createApiKey } from "./create-api-key";
import { apiKeyRefusal } from "./reasons";
import { API_KEY_KINDS, API_SCOPES, type ApiKeyKind, type ApiScope, scopesForNewKey } from "./scopes";

export const createApiKeySchema = z
  .object({
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, { error: "name must not be empty" })
      .max(100, { error: "name must be at most 100 characters" })
      .optional(),
    /** "secret" (default: the server's key) or "publishable" (browser code: payments only, CORS). */
    kind: z.enum(API_KEY_KINDS, { error: `kind must be one of ${API_KEY_KINDS.join(", ")}` }).optional(),
    /** Default: every scope the kind may hold. */
    scopes: z
      .array(z.enum(API_SCOPES, { error: `each scope must be one of ${API_SCOPES.join(", ")}` }), { error: "scopes must be an array" })
      .max(API_SCOPES.length * 2, { error: "scopes has too many entries" })
      .optional(),
    /** With two-factor sign-in on: the current code of the authenticator app. */
    code: z.string({ error: "code must be a string" }).max(32, { error: "code is too long" }).optional(),
  })
  .superRefine((input, ctx) => {
    // Checked with the body, before the two-factor code is spent on a request that would be refused.
    try {
      scopesForNewKey(input.kind ?? "secret", input.scopes);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      ctx.addIssue({ code: "custom", path: ["scopes"], message: error.message });
    }
  });

export interface ApiKeyView {
  id: number;
  name: string;
  prefix: string;
  kind: ApiKeyKind;
  scopes: ApiScope[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function toApiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    kind: key.kind === "publishable" ? "publishable" : "secret",
    scopes: API_SCOPES.filter((scope) => key.scopes.includes(scope)),
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

export async function listApiKeys(db: Db, userId: number): Promise<ApiKeyView[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.id));
  return rows.map(toApiKeyView);
}

/** A user may hold at most this many unrevoked keys: a stolen session cannot mint keys without bound. */
export const MAX_LIVE_API_KEYS = 25;

export interface IssueApiKeyInput {
  name?: string;
  kind?: ApiKeyKind;
  scopes?: readonly ApiScope[];
}

/** The whole key is in the result of this call only. Without kind/scopes: a secret key with every scope. */
export async function issueApiKey(
  db: Db,
  userId: number,
  input: IssueApiKeyInput = {},
  /** Who asked, for the audit log (the operator's CLI and fixtures pass none). */
  by?: AuditOrigin,
): Promise<ApiKeyView & { key: string }> {
  const kind = input.kind ?? "secret";
  const scopes = scopesForNewKey(kind, input.scopes);
  const { record, key } = await db.transaction(async (tx) => {
    // The user's row lock serialises concurrent creates, so the cap holds under a burst.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if (Number(live?.n ?? 0) >= MAX_LIVE_API_KEYS) {
      throw apiKeyRefusal(
        "VALIDATION_ERROR",
        "api-key-limit-reached",
        `you already have ${MAX_LIVE_API_KEYS} live API keys, the most allowed; revoke one first`,
      );
    }
    const created = await createApiKey(tx, userId, input.name ?? "default", { kind, scopes });
    if (by) {
      const { name, prefix } = created.record;
      await audit(tx, by, {
        action: "api_key.created",
        target: { type: "api_key", id: created.record.id },
        after: { name, prefix, kind, scopes },
      });
    }
    return created;
  });
  return { ...toApiKeyView(record), key };
}

/**
 * Revoking is idempotent, and immediate in this process (authentication forgets the keys it
 * remembered); other instances of a scaled-out deployment stop accepting the key within
 * AUTHENTICATED_KEY_TTL_MS.
 */
export async function revokeApiKey(db: Db, userId: number, id: number, by?: AuditOrigin): Promise<ApiKeyView> {
  const [key] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
  if (!key) throw commonRefusal("NOT_FOUND", "not-found", "API key not found");
  if (key.revokedAt) return toApiKeyView(key);
  const revoked = await db.transaction(async (tx) => {
    const rows = await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id)).returning();
    if (by)
      await audit(tx, by, { action: "api_key.revoked", target: { type: "api_key", id }, before: { name: key.name, prefix: key.prefix } });
    return rows;
  });
  forgetAuthenticatedKeys();
  return toApiKeyView(requireRow(revoked, `revoke api key ${id}`));
}

/** "Sign out everywhere" with its second option: every live key of the user stops working at once. */
export async function revokeAllApiKeys(db: Db, userId: number, by?: AuditOrigin): Promise<number> {
  const revoked = await db.transaction(async (tx) => {
    const rows = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
    if (by)
      for (const key of rows)
        await audit(tx, by, {
          action: "api_key.revoked",
          target: { type: "api_key", id: key.id },
          before: { name: key.name, prefix: key.prefix },
        });
    return rows;
  });
  forgetAuthenticatedKeys();
  return revoked.length;
}
