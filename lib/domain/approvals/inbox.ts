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
import { contentFields } from "../approval-requests/approval-events";
import { type ApprovalSummary, approvalSummaries } from "../approval-requests/content";

export interface ApprovalView {
  approvalId: string;
  kind: Approval["kind"];
  subjectId: string;
  amount: string;
  token: string;
  tokenId: number;
  status: ApprovalStatus;
  /**
   * Who asked: the member (id, e-mail) — for a request made with an API key, the key's creator,
   * with the key (id, name). Null: the member and the key are gone.
   */
  requestedBy: { userId: number | null; email: string | null; apiKey: { id: number; name: string } | null } | null;
  /** Where the money goes: a withdrawal's or refund's address; null for a refund waiting for the payer's claim, or a payout batch. */
  toAddress: string | null;
  /** A refund's payment (its session and the shop's order id). */
  payment: { sessionId: string; orderId: string | null } | null;
  /** A payout batch's items: how many, and the first five (index, recipient, amount, reference). */
  items: { count: number; first: { index: number; toAddress: string; amount: string; reference: string | null }[] } | null;
  /**
   * SHA-256 of what the money does, as it was asked for (destination, amount, token, wallet, every
   * payout item): send it with the approval, and the code approves exactly that.
   */
  contentHash: string | null;
  decidedBy: { userId: number; email: string } | null;
  decidedAt: string | null;
  reason: string | null;
  expiresAt: string;
  createdAt: string;
}

const requester = aliasedTable(users, "requester");
const decider = aliasedTable(users, "decider");
const keyCreator = aliasedTable(users, "key_creator");

type Row = Awaited<ReturnType<typeof approvalRows>>[number];

async function views(db: Db, rows: readonly Row[]): Promise<ApprovalView[]> {
  const summaries = await approvalSummaries(
    db,
    rows.map((r) => r.approval),
  );
  return rows.map((r) => toView(r, summaries.get(`${r.approval.kind}:${r.approval.subjectId}`)));
}

/** One approval of the account as the inbox shows it (NOT_FOUND: none, or another account's). */
export async function getApproval(db: Db, accountId: number, approvalId: string): Promise<ApprovalView> {
  const [row] = await views(db, await approvalRows(db, and(eq(approvals.accountId, accountId), eq(approvals.id, approvalId)), 1));
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
    items: await views(db, items),
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
  return (
    db
      .select({
        approval: approvals,
        token: { symbol: tokens.symbol, decimals: tokens.decimals },
        requester: { id: requester.id, email: requester.email },
        apiKey: { id: apiKeys.id, name: apiKeys.name },
        keyCreator: { id: keyCreator.id, email: keyCreator.email },
        decider: { id: decider.id, email: decider.email },
        cursorAt: keysetTimeText(approvals.createdAt),
      })
      .from(approvals)
      .innerJoin(tokens, eq(tokens.id, approvals.tokenId))
      .leftJoin(requester, eq(requester.id, approvals.requestedByUserId))
      .leftJoin(apiKeys, eq(apiKeys.id, approvals.requestedByApiKeyId))
      // Requests recorded before keys had creators name only the key: its creator is the requester.
      .leftJoin(keyCreator, eq(keyCreator.id, apiKeys.createdBy))
      .leftJoin(decider, eq(decider.id, approvals.decidedByUserId))
      .where(where)
      .orderBy(desc(approvals.createdAt), desc(approvals.id))
      .limit(limit)
  );
}

function toView(r: Row, summary: ApprovalSummary | undefined): ApprovalView {
  const member = r.requester?.id ? r.requester : r.keyCreator?.id ? r.keyCreator : null;
  const apiKey = r.apiKey?.id ? { id: r.apiKey.id, name: r.apiKey.name } : null;
  const fields = contentFields(summary ? { ...summary, hash: r.approval.contentHash } : null, r.token.decimals);
  return {
    approvalId: r.approval.id,
    kind: r.approval.kind,
    subjectId: r.approval.subjectId,
    amount: formatAmount(r.approval.amount, r.token.decimals),
    token: r.token.symbol,
    tokenId: r.approval.tokenId,
    status: r.approval.status,
    requestedBy: member || apiKey ? { userId: member?.id ?? null, email: member?.email ?? null, apiKey } : null,
    toAddress: fields.toAddress,
    payment: fields.payment,
    items: fields.items,
    contentHash: r.approval.contentHash,
    decidedBy: r.decider?.id ? { userId: r.decider.id, email: r.decider.email } : null,
    decidedAt: r.approval.decidedAt?.toISOString() ?? null,
    reason: r.approval.reason,
    expiresAt: r.approval.expiresAt.toISOString(),
    createdAt: r.approval.createdAt.toISOString(),
  };
}
