/**
 * An account's API keys: issuing one (bounded by its maker's role, docs/design.md §26), revoking one,
 * and "sign out everywhere"'s revocation of them all. What a member's removal or new role does to
 * the keys they made is member-keys.ts.
 */

import { and, count, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { AppError, commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { accountMembers, apiKeys, type MemberRole, type User, users } from "../../db/schema";
import { type AuditOrigin, audit, byMember } from "../audit/audit-origin";
import { accountRefusal } from "../users/reasons";
import { requireSecondFactor } from "../users/two-factor";
import { type ApiKeyView, apiKeyViews, toApiKeyView } from "./api-key-view";
import { forgetAuthenticatedKeys } from "./authenticate-api-key";
import { createApiKey } from "./create-api-key";
import { apiKeyRefusal } from "./reasons";
import { API_KEY_KINDS, API_SCOPES, type ApiKeyKind, type ApiScope, isMoneyScope, scopeExceedsRole, scopesForNewKey } from "./scopes";

export { type ApiKeyView, listApiKeys } from "./api-key-view";

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
    /** Default: every scope the kind may hold that the maker's role holds (the money scopes only with two-factor on). */
    scopes: z
      .array(z.enum(API_SCOPES, { error: `each scope must be one of ${API_SCOPES.join(", ")}` }), { error: "scopes must be an array" })
      .max(API_SCOPES.length * 2, { error: "scopes has too many entries" })
      .optional(),
    /** With two-factor sign-in on: the current code of the authenticator app (a money scope needs it on). */
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

/** A user may hold at most this many unrevoked keys: a stolen session cannot mint keys without bound. */
export const MAX_LIVE_API_KEYS = 25;

export interface IssueApiKeyInput {
  name?: string;
  kind?: ApiKeyKind;
  scopes?: readonly ApiScope[];
  /** The maker's current two-factor code: asked whenever their two-factor is on. */
  code?: string;
}

/** The member making a key in an account (a Principal fits): their role bounds it, their code confirms it. */
export interface KeyMaker {
  account: Pick<User, "id">;
  member: User;
  role: MemberRole;
  address?: string | null;
}

/**
 * A new key of the maker's account, made by them (docs/design.md §26); the whole key is in the result of
 * this call only. It holds the scopes asked for, or by default every scope its kind may hold that
 * the maker's role holds (the money scopes only while their two-factor is on). A scope beyond the
 * role is FORBIDDEN `scope-exceeds-role`; a money scope (refunds, withdrawals, payouts) without
 * two-factor is FORBIDDEN `two-factor-required`; with two-factor on every key needs a current
 * code. Each refusal comes before anything is written (and before a code is spent on a request
 * refused anyway); the role is read again under the account's lock, so a role shrunk or a member
 * removed meanwhile makes nothing.
 */
export async function issueApiKey(db: Db, maker: KeyMaker, input: IssueApiKeyInput = {}): Promise<ApiKeyView & { key: string }> {
  const kind = input.kind ?? "secret";
  const twoFactor = maker.member.totpEnabledAt !== null;
  const scopes = scopesForNewKey(kind, input.scopes, { role: maker.role, twoFactor });
  const money = scopes.filter(isMoneyScope);
  if (money.length > 0 && !twoFactor)
    throw accountRefusal(
      "FORBIDDEN",
      "two-factor-required",
      `a key that can send money out (${money.map((s) => `\`${s}\``).join(", ")}) is made only with your two-factor code: turn two-factor authentication on in Settings first`,
      [{ path: "scopes", message: "turn two-factor authentication on first, or leave the money scopes out" }],
    );
  await requireSecondFactor(db, maker.member, input.code);
  const accountId = maker.account.id;
  const { record, key } = await db.transaction(async (tx) => {
    // The account's row lock serialises concurrent creates (so the cap holds under a burst) with
    // member changes (manage-members.ts takes it first too). "No key update": inserts that only
    // reference the account (payments, audit rows) are not held up.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, accountId)).for("no key update");
    const [membership] = await tx
      .select({ role: accountMembers.role })
      .from(accountMembers)
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, maker.member.id)));
    if (!membership) throw scopeExceedsRole(maker.role, scopes, "you are no longer a member of this account");
    if (membership.role !== maker.role) scopesForNewKey(kind, scopes, { role: membership.role, twoFactor });
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, accountId), isNull(apiKeys.revokedAt)));
    if (Number(live?.n ?? 0) >= MAX_LIVE_API_KEYS) {
      throw apiKeyRefusal(
        "VALIDATION_ERROR",
        "api-key-limit-reached",
        `you already have ${MAX_LIVE_API_KEYS} live API keys, the most allowed; revoke one first`,
      );
    }
    const created = await createApiKey(tx, accountId, input.name ?? "default", { kind, scopes }, maker.member.id);
    const { name, prefix } = created.record;
    await audit(tx, byMember(maker), {
      action: "api_key.created",
      target: { type: "api_key", id: created.record.id },
      after: { name, prefix, kind, scopes },
    });
    return created;
  });
  return { ...toApiKeyView(record, maker.member), key };
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
  if (!key.revokedAt) {
    await db.transaction(async (tx) => {
      await tx
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
      if (by)
        await audit(tx, by, { action: "api_key.revoked", target: { type: "api_key", id }, before: { name: key.name, prefix: key.prefix } });
    });
    forgetAuthenticatedKeys();
  }
  const [view] = await apiKeyViews(db, eq(apiKeys.id, id));
  if (!view) throw commonRefusal("NOT_FOUND", "not-found", "API key not found");
  return view;
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
