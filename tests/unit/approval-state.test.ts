import { describe, expect, it } from "vitest";
import { APPROVAL_STATUSES, type ApprovalStatus } from "@/lib/db/schema";
import { type ApprovalFact, type ApprovalState, decideApproval, EXPIRED_REASON } from "@/lib/domain/approval-requests/approval-state";

const NOW = new Date("2026-11-27T12:00:00Z");
const LATER = new Date(NOW.getTime() + 3600_000);
const MAKER = 7;
const OTHER = 8;
const ASKED = "a".repeat(64);
const CHANGED = "b".repeat(64);
const state = (
  status: ApprovalStatus,
  expiresAt = LATER,
  requestedByUserId: number | null = MAKER,
  contentHash: string | null = ASKED,
): ApprovalState => ({
  status,
  expiresAt,
  requestedByUserId,
  contentHash,
});
const approveBy = (by: number, content: string | null = ASKED, confirmed?: string): ApprovalFact => ({
  kind: "approve",
  by,
  content,
  confirmed,
});

describe("decideApproval: every state × every fact", () => {
  const facts: ApprovalFact[] = [approveBy(OTHER), { kind: "reject", by: OTHER, reason: "no" }, { kind: "expiry" }];
  const decided = APPROVAL_STATUSES.filter((s) => s !== "awaiting_approval");
  it.each(decided.flatMap((s) => facts.map((f) => [s, f] as const)))("%s × %o: final, refused as decided", (status, fact) => {
    expect(decideApproval(state(status, NOW), fact, NOW)).toMatchObject({ accepted: false, reason: "approval-decided" });
  });

  const table: [string, ApprovalState, ApprovalFact, ReturnType<typeof decideApproval>][] = [
    [
      "another member approves in time, the content it was asked with",
      state("awaiting_approval"),
      approveBy(OTHER),
      {
        accepted: true,
        next: { status: "approved", decidedByUserId: OTHER, decidedAt: NOW, reason: null, approvedContentHash: ASKED },
        events: ["approval.approved"],
      },
    ],
    [
      "the requester approves their own (a key's request names the key's creator)",
      state("awaiting_approval"),
      approveBy(MAKER),
      {
        accepted: false,
        reason: "approver-is-requester",
        why: "you asked for it (yourself or with an API key you made): a second member must approve it",
      },
    ],
    [
      "nobody is left who asked (the member and the key are gone): any other member may approve",
      state("awaiting_approval", LATER, null),
      approveBy(MAKER),
      {
        accepted: true,
        next: { status: "approved", decidedByUserId: MAKER, decidedAt: NOW, reason: null, approvedContentHash: ASKED },
        events: ["approval.approved"],
      },
    ],
    [
      "the subject's content changed since it was asked for",
      state("awaiting_approval"),
      approveBy(OTHER, CHANGED),
      {
        accepted: false,
        reason: "approval-content-changed",
        why: "what it would send changed since it was asked for; it cannot be approved",
      },
    ],
    [
      "the approver confirms other content than it would send",
      state("awaiting_approval"),
      approveBy(OTHER, ASKED, CHANGED),
      {
        accepted: false,
        reason: "approval-content-changed",
        why: "what you confirmed is not what it would send now: look at it again before you approve",
      },
    ],
    [
      "a request recorded before content hashes: approved as it is now",
      state("awaiting_approval", LATER, MAKER, null),
      approveBy(OTHER, CHANGED, CHANGED),
      {
        accepted: true,
        next: { status: "approved", decidedByUserId: OTHER, decidedAt: NOW, reason: null, approvedContentHash: CHANGED },
        events: ["approval.approved"],
      },
    ],
    [
      "approve at its expiry instant",
      state("awaiting_approval", NOW),
      approveBy(OTHER),
      { accepted: false, reason: "approval-expired", why: "its time to be approved is over" },
    ],
    [
      "another member rejects with a reason",
      state("awaiting_approval"),
      { kind: "reject", by: OTHER, reason: "  too much  " },
      {
        accepted: true,
        next: { status: "rejected", decidedByUserId: OTHER, decidedAt: NOW, reason: "too much" },
        events: ["approval.rejected"],
      },
    ],
    [
      "the requester withdraws their own",
      state("awaiting_approval"),
      { kind: "reject", by: MAKER, reason: null },
      {
        accepted: true,
        next: { status: "rejected", decidedByUserId: MAKER, decidedAt: NOW, reason: "withdrawn by the requester" },
        events: ["approval.rejected"],
      },
    ],
    [
      "expiry at the deadline",
      state("awaiting_approval", NOW),
      { kind: "expiry" },
      {
        accepted: true,
        next: { status: "expired", decidedByUserId: null, decidedAt: NOW, reason: EXPIRED_REASON },
        events: ["approval.rejected"],
      },
    ],
    [
      "expiry before the deadline",
      state("awaiting_approval"),
      { kind: "expiry" },
      { accepted: false, reason: "approval-decided", why: "it has not expired yet" },
    ],
  ];
  it.each(table)("%s", (_name, from, fact, expected) => {
    expect(decideApproval(from, fact, NOW)).toEqual(expected);
  });

  it("clips a long reason to 500 characters", () => {
    const decision = decideApproval(state("awaiting_approval"), { kind: "reject", by: OTHER, reason: "x".repeat(900) }, NOW);
    expect(decision.accepted && decision.next.reason?.length).toBe(500);
  });
});
