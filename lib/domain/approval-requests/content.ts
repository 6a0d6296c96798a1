/**
 * What an approval's money does (docs/design.md §26): the wallet that pays, the token and
 * amount, and where it goes — a withdrawal's address, a refund's address (or "the payer's claim")
 * and the payment it belongs to, a payout batch's items. The approver sees it (the inbox, the
 * Approvals page, approval.requested) and their two-factor code approves exactly it: its hash is
 * stored when the request is made and again with the decision, and a subject whose content changed
 * in between is refused (approval-state.ts).
 *
 * Read from the subject's own rows, so it is the truth of what would be signed, not a copy.
 */

import { createHash } from "node:crypto";
import { and, asc, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../db";
import { type Approval, paymentSessions, payoutBatches, payoutItems, refunds, tokens, withdrawals } from "../../db/schema";
import { canonicalJson } from "../idempotency/idempotency";

/** How many of a payout batch's items the view carries; the hash covers every one. */
export const SHOWN_PAYOUT_ITEMS = 5;

export interface ApprovalContent {
  /** The domain whose withdrawal wallet pays. */
  domainId: number | null;
  token: { id: number; symbol: string; contract: string; network: string; decimals: number };
  /** Base units. */
  amount: bigint;
  /** Where a withdrawal or refund goes; null: a refund that waits for the payer's claim, or a payout batch. */
  toAddress: string | null;
  /** A refund's payment. */
  payment: { sessionId: string; orderId: string | null } | null;
  /** A payout batch: how many items, their total, the first ones (in order), every one hashed. */
  items: { count: number; first: { index: number; toAddress: string; amount: bigint; reference: string | null }[] } | null;
  /** SHA-256 (hex) of everything above, every payout item included. */
  hash: string;
}

type Subject = Pick<Approval, "kind" | "subjectId">;

export async function approvalContent(db: Db, approval: Subject): Promise<ApprovalContent | null> {
  switch (approval.kind) {
    case "withdrawal": {
      const [row] = await db
        .select({ w: withdrawals, token: tokens })
        .from(withdrawals)
        .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
        .where(eq(withdrawals.id, approval.subjectId));
      if (!row) return null;
      return sealed(approval, { domainId: row.w.domainId, token: tokenOf(row.token), amount: row.w.amount, toAddress: row.w.toAddress });
    }
    case "refund": {
      const [row] = await db
        .select({ refund: refunds, session: paymentSessions, token: tokens })
        .from(refunds)
        .innerJoin(paymentSessions, eq(paymentSessions.id, refunds.sessionId))
        .innerJoin(tokens, eq(tokens.id, paymentSessions.tokenId))
        .where(eq(refunds.id, approval.subjectId));
      if (!row) return null;
      return sealed(approval, {
        domainId: row.session.domainId,
        token: tokenOf(row.token),
        amount: row.refund.amount,
        toAddress: row.refund.toAddress,
        payment: { sessionId: row.session.id, orderId: row.session.orderId },
      });
    }
    case "payout": {
      const [row] = await db
        .select({ batch: payoutBatches, token: tokens })
        .from(payoutBatches)
        .innerJoin(tokens, eq(tokens.id, payoutBatches.tokenId))
        .where(eq(payoutBatches.id, approval.subjectId));
      if (!row) return null;
      // Up to 500 rows of three short columns, read once per approval view or decision.
      const all = await db
        .select({
          index: payoutItems.position,
          toAddress: payoutItems.toAddress,
          amount: payoutItems.amount,
          reference: payoutItems.reference,
        })
        .from(payoutItems)
        .where(eq(payoutItems.batchId, row.batch.id))
        .orderBy(asc(payoutItems.position));
      return sealed(
        approval,
        { domainId: row.batch.domainId, token: tokenOf(row.token), amount: row.batch.total, toAddress: null },
        { count: all.length, first: all.slice(0, SHOWN_PAYOUT_ITEMS), all },
      );
    }
  }
}

/** What the inbox shows of each approval without hashing anything: one query per kind for a page of them. */
export type ApprovalSummary = Pick<ApprovalContent, "toAddress" | "payment" | "items">;

export async function approvalSummaries(db: Db, page: readonly Subject[]): Promise<Map<string, ApprovalSummary>> {
  const ids = (kind: Subject["kind"]) => page.filter((a) => a.kind === kind).map((a) => a.subjectId);
  const out = new Map<string, ApprovalSummary>();
  const w = ids("withdrawal");
  if (w.length > 0)
    for (const row of await db
      .select({ id: withdrawals.id, to: withdrawals.toAddress })
      .from(withdrawals)
      .where(inArray(withdrawals.id, w)))
      out.set(`withdrawal:${row.id}`, { toAddress: row.to, payment: null, items: null });
  const r = ids("refund");
  if (r.length > 0)
    for (const row of await db
      .select({ id: refunds.id, to: refunds.toAddress, sessionId: paymentSessions.id, orderId: paymentSessions.orderId })
      .from(refunds)
      .innerJoin(paymentSessions, eq(paymentSessions.id, refunds.sessionId))
      .where(inArray(refunds.id, r)))
      out.set(`refund:${row.id}`, { toAddress: row.to, payment: { sessionId: row.sessionId, orderId: row.orderId }, items: null });
  const p = ids("payout");
  if (p.length > 0) {
    const batches = await db
      .select({ id: payoutBatches.id, count: payoutBatches.itemCount })
      .from(payoutBatches)
      .where(inArray(payoutBatches.id, p));
    const first = await db
      .select({
        batchId: payoutItems.batchId,
        index: payoutItems.position,
        toAddress: payoutItems.toAddress,
        amount: payoutItems.amount,
        reference: payoutItems.reference,
      })
      .from(payoutItems)
      .where(and(inArray(payoutItems.batchId, p), lt(payoutItems.position, SHOWN_PAYOUT_ITEMS)))
      .orderBy(asc(payoutItems.position));
    for (const batch of batches)
      out.set(`payout:${batch.id}`, {
        toAddress: null,
        payment: null,
        items: { count: batch.count, first: first.filter((i) => i.batchId === batch.id).map(({ batchId: _, ...item }) => item) },
      });
  }
  return out;
}

function tokenOf(token: typeof tokens.$inferSelect): ApprovalContent["token"] {
  return { id: token.id, symbol: token.symbol, contract: token.contractAddress, network: token.network, decimals: token.decimals };
}

type Item = { index: number; toAddress: string; amount: bigint; reference: string | null };

function sealed(
  subject: Subject,
  base: Pick<ApprovalContent, "domainId" | "token" | "amount" | "toAddress"> & { payment?: ApprovalContent["payment"] },
  items?: { count: number; first: Item[]; all: Item[] },
): ApprovalContent {
  const hashed = {
    kind: subject.kind,
    subjectId: subject.subjectId,
    domainId: base.domainId,
    network: base.token.network,
    token: base.token.contract.toLowerCase(),
    amount: base.amount.toString(),
    toAddress: base.toAddress?.toLowerCase() ?? null,
    payment: base.payment?.sessionId ?? null,
    items: items?.all.map((i) => [i.index, i.toAddress.toLowerCase(), i.amount.toString()]) ?? null,
  };
  return {
    domainId: base.domainId,
    token: base.token,
    amount: base.amount,
    toAddress: base.toAddress,
    payment: base.payment ?? null,
    items: items ? { count: items.count, first: items.first } : null,
    hash: createHash("sha256").update(canonicalJson(hashed)).digest("hex"),
  };
}
