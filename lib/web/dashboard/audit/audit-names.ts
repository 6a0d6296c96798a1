/**
 * The names one page of audit entries speaks of (audit-sentences.ts): the tokens, domains,
 * members, payments and approvals their targets and before/after name by id, each read once for the
 * page and only from the account's own rows (a member's e-mail: only of the users its entries name).
 */

import { and, eq, inArray } from "drizzle-orm";
import type { AuditEventView } from "../../../accounts/audit/list-audit";
import { formatAmount } from "../../../base/money";
import type { Db } from "../../../db";
import { approvals, domains, paymentSessions, tokens, users } from "../../../db/schema";
import type { AuditNames } from "./audit-sentences";

const fields = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const id = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids a page's entries name, by kind (exported for its unit test). */
export function namedIds(entries: readonly Pick<AuditEventView, "action" | "target" | "after">[]) {
  const tokenIds = new Set<number>();
  const domainIds = new Set<number>();
  const userIds = new Set<number>();
  const sessionIds = new Set<string>();
  const approvalIds = new Set<string>();
  const add = <T>(set: Set<T>, value: T | null) => value !== null && set.add(value);
  for (const entry of entries) {
    const after = fields(entry.after);
    const target = entry.target;
    if (target?.type === "token") add(tokenIds, id(target.id));
    if (target?.type === "domain") add(domainIds, id(target.id));
    if (target?.type === "user") add(userIds, id(target.id));
    add(tokenIds, id(after.tokenId));
    if (typeof after.sessionId === "string" && UUID.test(after.sessionId)) sessionIds.add(after.sessionId);
    if (typeof after.approvalId === "string" && after.approvalId.length <= 64) approvalIds.add(after.approvalId);
  }
  return {
    tokenIds: [...tokenIds],
    domainIds: [...domainIds],
    userIds: [...userIds],
    sessionIds: [...sessionIds],
    approvalIds: [...approvalIds],
  };
}

export async function auditNames(db: Db, accountId: number, entries: readonly AuditEventView[]): Promise<AuditNames> {
  const ids = namedIds(entries);
  const [tokenRows, domainRows, userRows, sessionRows, approvalRows] = await Promise.all([
    ids.tokenIds.length
      ? db
          .select({ id: tokens.id, symbol: tokens.symbol, decimals: tokens.decimals })
          .from(tokens)
          .where(and(eq(tokens.userId, accountId), inArray(tokens.id, ids.tokenIds)))
      : [],
    ids.domainIds.length
      ? db
          .select({ id: domains.id, origin: domains.origin })
          .from(domains)
          .where(and(eq(domains.userId, accountId), inArray(domains.id, ids.domainIds)))
      : [],
    ids.userIds.length ? db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids.userIds)) : [],
    ids.sessionIds.length
      ? db
          .select({ id: paymentSessions.id, orderId: paymentSessions.orderId, currency: paymentSessions.currency, token: tokens.symbol })
          .from(paymentSessions)
          .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
          .where(and(eq(paymentSessions.userId, accountId), inArray(paymentSessions.id, ids.sessionIds)))
      : [],
    ids.approvalIds.length
      ? db
          .select({ id: approvals.id, amount: approvals.amount, symbol: tokens.symbol, decimals: tokens.decimals })
          .from(approvals)
          .innerJoin(tokens, eq(tokens.id, approvals.tokenId))
          .where(and(eq(approvals.accountId, accountId), inArray(approvals.id, ids.approvalIds)))
      : [],
  ]);
  return {
    tokens: new Map(tokenRows.map((t) => [t.id, { symbol: t.symbol, decimals: t.decimals }])),
    domains: new Map(domainRows.map((d) => [d.id, d.origin.replace(/^https?:\/\//, "")])),
    members: new Map(userRows.map((u) => [u.id, u.email])),
    payments: new Map(sessionRows.map((s) => [s.id, { orderId: s.orderId, currency: s.currency, token: s.token }])),
    approvals: new Map(approvalRows.map((a) => [a.id, { amount: formatAmount(a.amount, a.decimals), token: a.symbol }])),
  };
}
