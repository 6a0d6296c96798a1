/**
 * The pure deciders of payout batches and their items (docs/design.md §24). Only
 * payout-records.ts applies their answers.
 *
 *   item:   pending ──(its chunk recorded in the ledger)──▶ sending ──(the chunk's nonce settled)──▶ completed | failed
 *           pending ──(batch rejected)──▶ failed
 *   batch:  awaiting_approval ──release──▶ pending          awaiting_approval ──reject──▶ rejected
 *           pending ──(an item sending or final)──▶ sending ──(every item final)──▶ completed | partially_failed | failed
 *
 * Events: `payout.completed` / `payout.failed` per item as it becomes final, and
 * `payout_batch.completed` once when the batch does (completed, partially_failed or failed).
 */

import type { PayoutBatchStatus, PayoutItemStatus } from "../../db/schema";

export type ItemFact =
  | { kind: "recorded" }
  /** The chunk's pay transaction was mined and its `Paid` event says this transfer succeeded or not. */
  | { kind: "settled"; paid: boolean; reason?: string }
  /** The chunk's transaction reverted, was cancelled, or its nonce went elsewhere: nothing was paid. */
  | { kind: "not-sent"; reason: string }
  | { kind: "batch-rejected" };

export type ItemEvent = "payout.completed" | "payout.failed";
export interface ItemDecision {
  status: PayoutItemStatus;
  event: ItemEvent | null;
  failureReason: string | null;
}

/** The item's next state, or null when the fact does not apply to its state (nothing to write). */
export function decideItem(status: PayoutItemStatus, fact: ItemFact): ItemDecision | null {
  switch (fact.kind) {
    case "recorded":
      return status === "pending" ? { status: "sending", event: null, failureReason: null } : null;
    case "settled":
      if (status !== "sending") return null;
      return fact.paid
        ? { status: "completed", event: "payout.completed", failureReason: null }
        : { status: "failed", event: "payout.failed", failureReason: fact.reason ?? "the token refused the transfer" };
    case "not-sent":
      return status === "sending" ? { status: "failed", event: "payout.failed", failureReason: fact.reason } : null;
    case "batch-rejected":
      return status === "pending" ? { status: "failed", event: null, failureReason: "the payout batch was rejected" } : null;
  }
}

export type ItemCounts = Record<PayoutItemStatus, number>;
export type BatchFact = { kind: "release" } | { kind: "reject" } | { kind: "items"; counts: ItemCounts };
export interface BatchDecision {
  status: PayoutBatchStatus;
  event: "payout_batch.completed" | null;
  final: boolean;
}

export const FINAL_BATCH_STATUSES: readonly PayoutBatchStatus[] = ["completed", "partially_failed", "failed", "rejected"];

export function decideBatch(status: PayoutBatchStatus, fact: BatchFact): BatchDecision | null {
  switch (fact.kind) {
    case "release":
      return status === "awaiting_approval" ? { status: "pending", event: null, final: false } : null;
    case "reject":
      return status === "awaiting_approval" ? { status: "rejected", event: null, final: true } : null;
    case "items": {
      if (status !== "pending" && status !== "sending") return null;
      const { pending, sending, completed, failed } = fact.counts;
      if (pending + sending === 0 && completed + failed > 0) {
        const next: PayoutBatchStatus = failed === 0 ? "completed" : completed === 0 ? "failed" : "partially_failed";
        return { status: next, event: "payout_batch.completed", final: true };
      }
      if (status === "pending" && sending + completed + failed > 0) return { status: "sending", event: null, final: false };
      return null;
    }
  }
}
