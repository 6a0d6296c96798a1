/**
 * The one writer of approvals.status (tests/unit/status-writes.test.ts holds that): a request is
 * inserted `awaiting_approval` with approval.requested; a fact is decided by approval-state.ts and
 * written as a compare-and-set on `awaiting_approval`, with its events, in the caller's
 * transaction — the one that also moves the subject (records the withdrawal's ledger row, rejects
 * the refund…), so both change together or neither does.
 */

import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type Approval, type ApprovalKind, apiKeys, approvals } from "../../db/schema";
import { enqueueApprovalEvent } from "./approval-events";
import { APPROVAL_TTL_MS, type ApprovalDecision, type ApprovalFact, type ApprovalState, decideApproval } from "./approval-state";
import { approvalContent } from "./content";
import { approvalRefusal } from "./reasons";

export function newApprovalId(): string {
  return `apr_${randomBytes(12).toString("hex")}`;
}

export interface ApprovalRequest {
  accountId: number;
  kind: ApprovalKind;
  subjectId: string;
  domainId: number;
  tokenId: number;
  amount: bigint;
  /**
   * Who asked: the member — on the dashboard, or the creator of the API key it was asked with
   * (docs/design.md §26: a request made with a key is its creator's) — and the key, if any.
   */
  requestedBy: { userId: number | null; apiKeyId: number | null };
}

/**
 * In the transaction that records the subject `awaiting_approval`, once the subject's rows are
 * written: the hash of what it would send is stored with it (content.ts).
 */
export async function requestApproval(tx: Db, request: ApprovalRequest, now = new Date()): Promise<Approval> {
  const content = await approvalContent(tx, { kind: request.kind, subjectId: request.subjectId });
  if (!content) throw new Error(`approval requested for ${request.kind} ${request.subjectId}, which is not recorded`);
  const inserted = await tx
    .insert(approvals)
    .values({
      id: newApprovalId(),
      accountId: request.accountId,
      kind: request.kind,
      subjectId: request.subjectId,
      domainId: request.domainId,
      tokenId: request.tokenId,
      amount: request.amount,
      requestedByUserId: request.requestedBy.userId,
      requestedByApiKeyId: request.requestedBy.apiKeyId,
      contentHash: content.hash,
      expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS),
      createdAt: now,
    })
    .returning();
  const approval = requireRow(inserted, "insert into approvals");
  await enqueueApprovalEvent(tx, approval, "approval.requested", now, content);
  return approval;
}

/**
 * Decides `fact` on the approval as it is now (locked until the caller's transaction ends) and
 * writes it. A fact that does not apply throws its refusal (`approval-decided`,
 * `approver-is-requester`, `approval-expired`): of two concurrent approvals, the second waits for
 * the first's transaction and then finds it decided.
 */
export async function applyApprovalFact(tx: Db, approvalId: string, fact: ApprovalFact, now = new Date()): Promise<Approval> {
  const [current] = await tx.select().from(approvals).where(eq(approvals.id, approvalId)).for("no key update");
  if (!current) throw commonRefusal("NOT_FOUND", "not-found", `approval ${approvalId} not found`);
  const decision = decideApproval(await asDecided(tx, current), fact, now);
  if (!decision.accepted) throw refusalOf(decision);
  const [written] = await tx
    .update(approvals)
    .set(decision.next)
    .where(and(eq(approvals.id, approvalId), eq(approvals.status, "awaiting_approval")))
    .returning();
  if (!written) throw approvalRefusal("VALIDATION_ERROR", "approval-decided", "this approval was decided meanwhile");
  for (const event of decision.events) await enqueueApprovalEvent(tx, written, event, now);
  return written;
}

/**
 * The approval as the decider sees it: its requester is the member who asked, or the creator of
 * the API key it was asked with (requests recorded before keys had creators name only the key).
 */
export async function asDecided(db: Db, approval: Approval): Promise<ApprovalState> {
  if (approval.requestedByUserId !== null || approval.requestedByApiKeyId === null) return approval;
  const [key] = await db.select({ createdBy: apiKeys.createdBy }).from(apiKeys).where(eq(apiKeys.id, approval.requestedByApiKeyId));
  return { ...approval, requestedByUserId: key?.createdBy ?? null };
}

export function refusalOf(decision: Extract<ApprovalDecision, { accepted: false }>) {
  if (decision.reason === "approver-is-requester") return approvalRefusal("FORBIDDEN", decision.reason, decision.why);
  return approvalRefusal("VALIDATION_ERROR", decision.reason, decision.why);
}
