/**
 * The approvals inbox (GET /api/user/approvals, the dashboard's Approvals page): newest first by
 * keyset cursor over the index (account_id, status, created_at desc, id desc), with who asked and
 * who decided; and the count of those waiting, for the navigation's badge.
 */

import { aliasedTable, and, count, desc, eq, type SQL } from "drizzle-orm";
import { decodeCursor, encodeCursor } from "../../base/cursor";
import { commonRefusal } from "../../base/errors";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { keysetAfter, keysetTimeText } from "../../db/keyset";
import { type Approval, type ApprovalStatus, apiKeys, approvals, tokens, users } from "../../db/schema";

export interface ApprovalView {
  approvalId: string;
  kind: Approval["kind"];
  subjectId: string;
  amount: string;
  token: string;
  tokenId: number;
  status: ApprovalStatus;
  /** Who asked: a member (id, e-mail) or an API key (id, name). */
  requestedBy: { userId: number; email: string } | { apiKeyId: number; name: string } | null;
  decidedBy: { userId: number; email: string } | null;
  decidedAt: string | null;
  reason: string | null;
  expiresAt: string;
  createdAt: string;
}

const requester = aliasedTable(users, "requester");
const decider = aliasedTable(users, "decider");

/** One approval of the account as the inbox shows it (NOT_FOUND: none, or another account's). */
export async function getApproval(db: Db, accountId: number, approvalId: string): Promise<ApprovalView> {
  const [row] = (await approvalRows(db, and(eq(approvals.accountId, accountId), eq(approvals.id, approvalId)), 1)).map(toView);
  if (!row) throw commonRefusal("NOT_FOUND", "not-found", "approval not found");
  return row;
}

export async function listApprovals(
  db: Db,
  accountId: number,
  query: { status?: ApprovalStatus; cursor?: string; limit?: number } = {},
): Promise<{ items: ApprovalView[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  const after = query.cursor ? decodeCursor(query.cursor, "prefixed") : null;
  const where: SQL | undefined = and(
    eq(approvals.accountId, accountId),
    query.status ? eq(approvals.status, query.status) : undefined,
    after ? keysetAfter(approvals.createdAt, approvals.id, after) : undefined,
  );
  const rows = await approvalRows(db, where, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(toView),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.cursorAt, id: last.approval.id }) : null,
  };
}

/** How many of the account's approvals wait for a decision: the navigation's badge. */
export async function countAwaiting(db: Db, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(approvals)
    .where(and(eq(approvals.accountId, accountId), eq(approvals.status, "awaiting_approval")));
  return row?.n ?? 0;
}

function approvalRows(db: Db, where: SQL | undefined, limit: number) {
  return db
    .select({
      approval: approvals,
      token: { symbol: tokens.symbol, decimals: tokens.decimals },
      requester: { id: requester.id, email: requester.email },
      apiKey: { id: apiKeys.id, name: apiKeys.name },
      decider: { id: decider.id, email: decider.email },
      cursorAt: keysetTimeText(approvals.createdAt),
    })
    .from(approvals)
    .innerJoin(tokens, eq(tokens.id, approvals.tokenId))
    .leftJoin(requester, eq(requester.id, approvals.requestedByUserId))
    .leftJoin(apiKeys, eq(apiKeys.id, approvals.requestedByApiKeyId))
    .leftJoin(decider, eq(decider.id, approvals.decidedByUserId))
    .where(where)
    .orderBy(desc(approvals.createdAt), desc(approvals.id))
    .limit(limit);
}

function toView(r: Awaited<ReturnType<typeof approvalRows>>[number]): ApprovalView {
  return {
    approvalId: r.approval.id,
    kind: r.approval.kind,
    subjectId: r.approval.subjectId,
    amount: formatAmount(r.approval.amount, r.token.decimals),
    token: r.token.symbol,
    tokenId: r.approval.tokenId,
    status: r.approval.status,
    requestedBy: r.requester?.id
      ? { userId: r.requester.id, email: r.requester.email }
      : r.apiKey?.id
        ? { apiKeyId: r.apiKey.id, name: r.apiKey.name }
        : null,
    decidedBy: r.decider?.id ? { userId: r.decider.id, email: r.decider.email } : null,
    decidedAt: r.approval.decidedAt?.toISOString() ?? null,
    reason: r.approval.reason,
    expiresAt: r.approval.expiresAt.toISOString(),
    createdAt: r.approval.createdAt.toISOString(),
  };
}
