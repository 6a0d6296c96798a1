/**
 * An approval's state machine as one pure decider: (state, fact, now) → (next state, events).
 * approval-records.ts is its one writer (a compare-and-set on `awaiting_approval`).
 *
 *   (requested) ──▶ awaiting_approval ──approve by another member, before expires_at──▶ approved
 *                   awaiting_approval ──reject (any member with `approve`, the requester too)──▶ rejected
 *                   awaiting_approval ──expiry, at or after expires_at──▶ expired
 *
 * The requester never approves their own — a request made with an API key is its creator's — and
 * may withdraw it (reject). An approval approves exactly the content it was asked for with
 * (content.ts): one whose subject changed since, or whose approver confirmed other content, is
 * refused (`approval-content-changed`). Approved, rejected and
 * expired are final. Expiry is told as approval.rejected (status "expired"): the webhook events
 * are approval.requested | approved | rejected (docs/design.md §24).
 */
import type { Approval, ApprovalStatus } from "../../db/schema";
import type { ApprovalReason } from "./reasons";

/** How long a request waits for its approval. */
export const APPROVAL_TTL_MS = 72 * 3600 * 1000;
export const EXPIRED_REASON = "nobody approved it within 72 hours";
const TEXT_LIMIT = 500;

/** `requestedByUserId`: the member who asked — for a request made with an API key, the key's creator. */
export type ApprovalState = Pick<Approval, "status" | "expiresAt" | "requestedByUserId" | "contentHash">;

export type ApprovalFact =
  | {
      kind: "approve";
      by: number;
      /** The hash of the subject's content as it is now (content.ts); null: not read yet (a check before the code is spent). */
      content: string | null;
      /** The hash the approver was shown and confirms, when their client sends it. */
      confirmed?: string;
    }
  | { kind: "reject"; by: number; reason: string | null }
  | { kind: "expiry" };

export type ApprovalEvent = "approval.approved" | "approval.rejected";

export type ApprovalDecision =
  | {
      accepted: true;
      next: {
        status: Exclude<ApprovalStatus, "awaiting_approval">;
        decidedByUserId: number | null;
        decidedAt: Date;
        reason: string | null;
        approvedContentHash?: string | null;
      };
      events: ApprovalEvent[];
    }
  | { accepted: false; reason: ApprovalReason; why: string };

export function decideApproval(state: ApprovalState, fact: ApprovalFact, now: Date): ApprovalDecision {
  if (state.status !== "awaiting_approval") return { accepted: false, reason: "approval-decided", why: `it is ${state.status} already` };
  const due = state.expiresAt.getTime() <= now.getTime();
  switch (fact.kind) {
    case "approve":
      if (due) return { accepted: false, reason: "approval-expired", why: "its time to be approved is over" };
      if (state.requestedByUserId === fact.by)
        return {
          accepted: false,
          reason: "approver-is-requester",
          why: "you asked for it (yourself or with an API key you made): a second member must approve it",
        };
      if (fact.content !== null && state.contentHash !== null && state.contentHash !== fact.content)
        return {
          accepted: false,
          reason: "approval-content-changed",
          why: "what it would send changed since it was asked for; it cannot be approved",
        };
      if (fact.confirmed !== undefined && fact.content !== null && fact.confirmed !== fact.content)
        return {
          accepted: false,
          reason: "approval-content-changed",
          why: "what you confirmed is not what it would send now: look at it again before you approve",
        };
      return {
        accepted: true,
        next: { status: "approved", decidedByUserId: fact.by, decidedAt: now, reason: null, approvedContentHash: fact.content },
        events: ["approval.approved"],
      };
    case "reject": {
      const own = state.requestedByUserId === fact.by;
      const reason = fact.reason?.trim() ? fact.reason.trim().slice(0, TEXT_LIMIT) : own ? "withdrawn by the requester" : null;
      return {
        accepted: true,
        next: { status: "rejected", decidedByUserId: fact.by, decidedAt: now, reason },
        events: ["approval.rejected"],
      };
    }
    case "expiry":
      if (!due) return { accepted: false, reason: "approval-decided", why: "it has not expired yet" };
      return {
        accepted: true,
        next: { status: "expired", decidedByUserId: null, decidedAt: now, reason: EXPIRED_REASON },
        events: ["approval.rejected"],
      };
  }
}
