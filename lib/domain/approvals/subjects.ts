/**
 * What each kind of approval moves once it is decided. `approve` runs `claim` — the approval's
 * compare-and-set awaiting_approval → approved, with approval.approved — inside the transaction
 * that records the subject's money out, so a subject is recorded once however many approve at
 * once. `close` runs in the transaction that rejected or expired the approval.
 */

import type { Db } from "../../db";
import type { Approval, ApprovalKind } from "../../db/schema";
import { approvalRefusal } from "../approval-requests/reasons";
import { approvePayout, closePayout } from "../payouts/payout-approvals";
import { approveRefund, closeRefund } from "../refunds/refund-approvals";
import { approveWithdrawal, closeWithdrawal, type SubjectOutcome } from "../withdrawals/withdrawal-approvals";

export type { SubjectOutcome };

export interface ApprovalSubject {
  approve(db: Db, approval: Approval, claim: (tx: Db) => Promise<Approval>): Promise<SubjectOutcome>;
  close(tx: Db, approval: Approval): Promise<SubjectOutcome>;
}

const SUBJECTS: Partial<Record<ApprovalKind, ApprovalSubject>> = {
  withdrawal: { approve: approveWithdrawal, close: closeWithdrawal },
  refund: { approve: approveRefund, close: closeRefund },
  payout: { approve: approvePayout, close: closePayout },
};

/** The kinds this server can decide. */
export const SUPPORTED: ReadonlySet<ApprovalKind> = new Set(Object.keys(SUBJECTS) as ApprovalKind[]);

export function subjectOf(kind: ApprovalKind): ApprovalSubject {
  const subject = SUBJECTS[kind];
  if (!subject) throw approvalRefusal("VALIDATION_ERROR", "approval-kind-unsupported", `approvals of ${kind}s cannot be decided here yet`);
  return subject;
}
