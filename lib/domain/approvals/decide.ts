/**
 * A second member decides: approve (with a two-factor code, never their own), reject (the
 * requester may withdraw their own), or the job expires what waited 72 h. Each writes the
 * approval (lib/domain/approval-requests/approval-records.ts) in the transaction that moves its
 * subject (subjects.ts).
 */

import { and, asc, eq, lte } from "drizzle-orm";
import { systemActor } from "../../accounts/audit/actor";
import { type AuditOrigin, audit, byMember } from "../../accounts/audit/audit-origin";
import { type Principal, requirePermission } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import { AppError, commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { type Approval, approvals } from "../../db/schema";
import { applyApprovalFact, asDecided, refusalOf } from "../approval-requests/approval-records";
import { decideApproval } from "../approval-requests/approval-state";
import { approvalContent } from "../approval-requests/content";
import { approvalRefusal } from "../approval-requests/reasons";
import { lockAccountForMoneyOut } from "../transfers/money-out-locks";
import { type ApprovalView, getApproval } from "./inbox";
import { SUPPORTED, type SubjectOutcome, subjectOf } from "./subjects";

export interface Decided {
  approval: ApprovalView;
  /** Where its withdrawal or refund stands now ("submitted", "failed" with why, "rejected"…). */
  subject: SubjectOutcome;
}

/**
 * `confirmed`: the content hash the approver was shown (the inbox's `contentHash`); their code
 * approves exactly that content, and the subject's content is read again in the recording
 * transaction (after the account's lock, which every change of a subject takes too).
 */
export async function approve(
  db: Db,
  principal: Principal,
  approvalId: string,
  code: string | undefined,
  now = new Date(),
  confirmed?: string,
): Promise<Decided> {
  requirePermission(principal, "approve");
  const approval = await findApproval(db, principal.account.id, approvalId);
  const seen = await approvalContent(db, approval);
  const fact = (content: string | null) => ({ kind: "approve" as const, by: principal.member.id, content, confirmed });
  // Refused before the code is spent: approving your own, content changed, or what is decided or expired already.
  const decision = decideApproval(await asDecided(db, approval), fact(seen?.hash ?? null), now);
  if (!decision.accepted) throw refusalOf(decision);
  if (!principal.member.totpEnabledAt)
    throw approvalRefusal(
      "FORBIDDEN",
      "approver-needs-two-factor",
      "approving money out is confirmed with a two-factor code: turn two-factor authentication on first",
    );
  await requireSecondFactor(db, principal.member, code);
  const subject = await subjectOf(approval.kind).approve(db, approval, async (tx) => {
    // `claim` is the first statement of the subject's transaction: the account's lock comes first (money-out-locks.ts).
    await lockAccountForMoneyOut(tx, approval.accountId);
    const current = await approvalContent(tx, approval);
    if (!current) throw new Error(`approval ${approval.id} names no ${approval.kind}`);
    const written = await applyApprovalFact(tx, approval.id, fact(current.hash), now);
    await auditDecision(tx, byMember(principal), written);
    return written;
  });
  return { approval: await getApproval(db, principal.account.id, approvalId), subject };
}

export async function reject(db: Db, principal: Principal, approvalId: string, reason?: string | null, now = new Date()): Promise<Decided> {
  requirePermission(principal, "approve");
  const approval = await findApproval(db, principal.account.id, approvalId);
  const subjectOfKind = subjectOf(approval.kind);
  const subject = await db.transaction(async (tx) => {
    await lockAccountForMoneyOut(tx, approval.accountId);
    const written = await applyApprovalFact(tx, approval.id, { kind: "reject", by: principal.member.id, reason: reason ?? null }, now);
    await auditDecision(tx, byMember(principal), written);
    return subjectOfKind.close(tx, written);
  });
  return { approval: await getApproval(db, principal.account.id, approvalId), subject };
}

/** Job step: every approval still waiting at its expires_at is expired, its subject rejected (a bounded page per run). */
export async function expireApprovals(db: Db, now = new Date(), limit = 100): Promise<number> {
  const due = await db
    .select({ id: approvals.id, kind: approvals.kind, accountId: approvals.accountId })
    .from(approvals)
    .where(and(eq(approvals.status, "awaiting_approval"), lte(approvals.expiresAt, now)))
    .orderBy(asc(approvals.expiresAt))
    .limit(limit);
  let expired = 0;
  for (const { id, kind, accountId } of due) {
    if (!SUPPORTED.has(kind)) continue;
    const subject = subjectOf(kind);
    const done = await db
      .transaction(async (tx) => {
        await lockAccountForMoneyOut(tx, accountId);
        const written = await applyApprovalFact(tx, id, { kind: "expiry" }, now);
        await auditDecision(tx, { accountId: written.accountId, actor: systemActor("approval expiry"), address: null }, written);
        await subject.close(tx, written);
        return true;
      })
      .catch((error: unknown) => {
        // Decided meanwhile (approved or rejected by a member): nothing to expire.
        if (error instanceof AppError && error.reason === "approval-decided") return false;
        throw error;
      });
    if (done) expired++;
  }
  return expired;
}

export async function findApproval(db: Db, accountId: number, approvalId: string): Promise<Approval> {
  const [row] = await db
    .select()
    .from(approvals)
    .where(and(eq(approvals.id, approvalId), eq(approvals.accountId, accountId)));
  if (!row) throw commonRefusal("NOT_FOUND", "not-found", "approval not found");
  return row;
}

/** `<kind>.approved` or `<kind>.rejected` (expiry included) in the audit log, in the deciding transaction. */
function auditDecision(tx: Db, origin: AuditOrigin, approval: Approval) {
  const verb = approval.status === "approved" ? "approved" : "rejected";
  return audit(tx, origin, {
    action: `${approval.kind}.${verb}`,
    target: { type: approval.kind, id: approval.subjectId },
    after: {
      approvalId: approval.id,
      status: approval.status,
      amount: approval.amount.toString(),
      reason: approval.reason,
      ...(approval.approvedContentHash ? { contentHash: approval.approvedContentHash } : {}),
    },
  });
}
