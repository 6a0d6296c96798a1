import { describe, expect, it } from "vitest";
import { PAYOUT_BATCH_STATUSES, PAYOUT_ITEM_STATUSES, type PayoutItemStatus } from "@/lib/db/schema";
import { type BatchFact, decideBatch, decideItem, type ItemCounts, type ItemFact } from "@/lib/domain/payouts/payout-state";

const ITEM_FACTS: Record<string, ItemFact> = {
  recorded: { kind: "recorded" },
  paid: { kind: "settled", paid: true },
  refused: { kind: "settled", paid: false },
  "not-sent": { kind: "not-sent", reason: "the payout transaction reverted" },
  rejected: { kind: "batch-rejected" },
};

/** item status × fact → next status (null: the fact does not apply, nothing is written). */
const ITEM_TABLE: Record<PayoutItemStatus, Record<string, PayoutItemStatus | null>> = {
  pending: { recorded: "sending", paid: null, refused: null, "not-sent": null, rejected: "failed" },
  sending: { recorded: null, paid: "completed", refused: "failed", "not-sent": "failed", rejected: null },
  completed: { recorded: null, paid: null, refused: null, "not-sent": null, rejected: null },
  failed: { recorded: null, paid: null, refused: null, "not-sent": null, rejected: null },
};

describe("decideItem", () => {
  for (const status of PAYOUT_ITEM_STATUSES) {
    for (const [name, fact] of Object.entries(ITEM_FACTS)) {
      it(`${status} + ${name} → ${ITEM_TABLE[status][name]}`, () => {
        expect(decideItem(status, fact)?.status ?? null).toBe(ITEM_TABLE[status][name]);
      });
    }
  }

  it("announces each final outcome once, with the reason of a failure", () => {
    expect(decideItem("sending", ITEM_FACTS.paid as ItemFact)).toEqual({
      status: "completed",
      event: "payout.completed",
      failureReason: null,
    });
    expect(decideItem("sending", ITEM_FACTS.refused as ItemFact)).toMatchObject({
      event: "payout.failed",
      failureReason: "the token refused the transfer",
    });
    expect(decideItem("sending", ITEM_FACTS["not-sent"] as ItemFact)).toMatchObject({
      event: "payout.failed",
      failureReason: "the payout transaction reverted",
    });
    // A rejected batch's items never reached anyone: no per-item webhook (approvals announce the rejection).
    expect(decideItem("pending", ITEM_FACTS.rejected as ItemFact)?.event).toBeNull();
  });
});

const counts = (c: Partial<ItemCounts>): BatchFact => ({
  kind: "items",
  counts: { pending: 0, sending: 0, completed: 0, failed: 0, ...c },
});

describe("decideBatch", () => {
  it("releases or rejects only a batch awaiting approval", () => {
    for (const status of PAYOUT_BATCH_STATUSES) {
      expect(decideBatch(status, { kind: "release" })?.status ?? null).toBe(status === "awaiting_approval" ? "pending" : null);
      expect(decideBatch(status, { kind: "reject" })?.status ?? null).toBe(status === "awaiting_approval" ? "rejected" : null);
    }
    expect(decideBatch("awaiting_approval", { kind: "reject" })).toMatchObject({ final: true, event: null });
  });

  it("is sending once any item left pending, and final once every item is", () => {
    expect(decideBatch("pending", counts({ pending: 3 }))).toBeNull();
    expect(decideBatch("pending", counts({ pending: 2, sending: 1 }))?.status).toBe("sending");
    expect(decideBatch("sending", counts({ sending: 1, completed: 2 }))).toBeNull();
    expect(decideBatch("sending", counts({ completed: 3 }))).toEqual({ status: "completed", event: "payout_batch.completed", final: true });
    expect(decideBatch("sending", counts({ completed: 2, failed: 1 }))?.status).toBe("partially_failed");
    expect(decideBatch("sending", counts({ failed: 3 }))?.status).toBe("failed");
    expect(decideBatch("pending", counts({ failed: 3 }))?.status).toBe("failed");
  });

  it("never moves a final batch, nor one awaiting approval, on its items", () => {
    for (const status of ["completed", "partially_failed", "failed", "rejected", "awaiting_approval"] as const) {
      expect(decideBatch(status, counts({ completed: 1 }))).toBeNull();
    }
  });
});
