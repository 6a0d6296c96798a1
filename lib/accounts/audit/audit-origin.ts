/**
 * Who is acting and from where, as the audit log records it: a member in an account (their
 * principal), an API key, or the service. The helpers here spare each call site the mapping.
 */

import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { type ApiKey, accountMembers, type User } from "../../db/schema";
import type { AuditAction } from "./actions";
import { type AuditActor, apiKeyActor, userActor } from "./actor";
import { type AuditInput, recordAudit } from "./record-audit";

/** The account an action is recorded in, its actor and the client's address. */
export interface AuditOrigin {
  accountId: number;
  actor: AuditActor;
  address: string | null;
}

/** A member acting in an account (a Principal, or the single-user CLI/tests' `asOwner`). */
export function byMember(principal: { account: { id: number }; member: Pick<User, "id" | "email">; address?: string | null }): AuditOrigin {
  return { accountId: principal.account.id, actor: userActor(principal.member), address: principal.address ?? null };
}

/** An API key acting for its account. */
export function byApiKey(apiKey: Pick<ApiKey, "id" | "userId" | "name" | "prefix">, address: string | null = null): AuditOrigin {
  return { accountId: apiKey.userId, actor: apiKeyActor(apiKey), address };
}

/** Records one action of `origin` (inside the caller's transaction when given one). */
export function audit(db: Db, origin: AuditOrigin, entry: Omit<AuditInput, "accountId" | "actor" | "address">) {
  return recordAudit(db, { ...origin, ...entry });
}

/**
 * What a user does to themself (signs in, changes their password, turns two-factor on or off) is
 * recorded in every account they belong to: each owner sees their members' security events.
 */
export async function auditInEveryAccount(
  db: Db,
  user: Pick<User, "id" | "email">,
  address: string | null,
  action: AuditAction,
  entry: Pick<AuditInput, "before" | "after"> = {},
): Promise<void> {
  const accounts = await db.select({ accountId: accountMembers.accountId }).from(accountMembers).where(eq(accountMembers.userId, user.id));
  for (const { accountId } of accounts) {
    await recordAudit(db, { accountId, actor: userActor(user), address, action, target: { type: "user", id: user.id }, ...entry });
  }
}
