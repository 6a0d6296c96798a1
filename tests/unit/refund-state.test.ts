import { describe, expect, it } from "vitest";
import { REFUND_STATUSES, type RefundStatus } from "@/lib/db/schema";
import {
  CANCELLED_BY_MERCHANT,
  CLAIM_EXPIRED,
  decideRefund,
  type RefundChange,
  type RefundEvent,
  type RefundFact,
  type RefundState,
} from "@/lib/domain/refunds/refund-state";

const NOW = new Date("2026-11-25T12:00:00Z");
const LATER = new Date(NOW.getTime() + 86_400_000);
const EARLIER = new Date(NOW.getTime() - 1);
const PAYER = "0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097";
/** A refund as it is in `status`: no address while it waits for one, the payer's (or merchant's) after. */
const state = (status: RefundStatus, claimExpiresAt = LATER, more: Partial<RefundState> = {}): RefundState => ({
  status,
  claimExpiresAt,
  toAddress: status === "awaiting_address" ? null : PAYER,
  approvalOnClaim: false,
  ...more,
});

const FACTS: Record<RefundFact["kind"], RefundFact> = {
  create: { kind: "create", toAddress: null, claimExpiresAt: LATER },
  claim: { kind: "claim", address: PAYER },
  "claim-for-approval": { kind: "claim-for-approval", address: PAYER },
  "claim-failed": { kind: "claim-failed", reason: "not enough tokens in the withdrawal wallet" },
  "create-awaiting-funds": { kind: "create-awaiting-funds", toAddress: PAYER, claimExpiresAt: LATER, reason: "the wallet holds 0" },
  "claim-awaiting-funds": { kind: "claim-awaiting-funds", address: PAYER, reason: "the wallet holds 0" },
  "funds-arrived": { kind: "funds-arrived" },
  "funds-short": { kind: "funds-short", reason: "the wallet holds 1, 2 needed" },
  cancel: { kind: "cancel" },
  expiry: { kind: "expiry" },
  "withdrawal-completed": { kind: "withdrawal-completed" },
  "withdrawal-failed": { kind: "withdrawal-failed", reason: "the transfer reverted on chain" },
  "create-awaiting-approval": { kind: "create-awaiting-approval", toAddress: PAYER, claimExpiresAt: LATER },
  approved: { kind: "approved", to: "sending", claimExpiresAt: LATER },
  "refused-at-approval": { kind: "refused-at-approval", reason: "not enough tokens" },
  rejected: { kind: "rejected", reason: "rejected: not this one" },
};

/** Every move the state machine allows, from a claim still open (`LATER`); everything else is refused. */
const ALLOWED: [RefundState | null, RefundFact, RefundChange, RefundEvent[]][] = [
  [
    null,
    FACTS.create,
    { status: "awaiting_address", toAddress: null, addressFrom: null, claimExpiresAt: LATER, approvalOnClaim: false },
    ["refund.created"],
  ],
  [state("awaiting_address"), FACTS.claim, { status: "sending", toAddress: PAYER, addressFrom: "payer", reason: null }, []],
  [
    state("awaiting_address"),
    FACTS["claim-failed"],
    { status: "awaiting_address", reason: "the payer's last claim could not be sent: not enough tokens in the withdrawal wallet" },
    [],
  ],
  [state("awaiting_address"), FACTS.cancel, { status: "cancelled", reason: CANCELLED_BY_MERCHANT, cancelledAt: NOW }, []],
  // The wallet cannot pay yet: the refund waits for the funds with its address, never expires, and counts as spoken for.
  [
    null,
    FACTS["create-awaiting-funds"],
    { status: "awaiting_funds", toAddress: PAYER, addressFrom: "merchant", claimExpiresAt: LATER, reason: "the wallet holds 0" },
    ["refund.created"],
  ],
  [
    state("awaiting_address"),
    FACTS["claim-awaiting-funds"],
    { status: "awaiting_funds", toAddress: PAYER, addressFrom: "payer", reason: "the wallet holds 0" },
    [],
  ],
  [state("awaiting_funds"), FACTS["funds-arrived"], { status: "sending", reason: null }, []],
  [state("awaiting_funds"), FACTS["funds-short"], { status: "awaiting_funds", reason: "the wallet holds 1, 2 needed" }, []],
  [state("awaiting_funds"), FACTS.cancel, { status: "cancelled", reason: CANCELLED_BY_MERCHANT, cancelledAt: NOW }, []],
  [state("sending"), FACTS["withdrawal-completed"], { status: "completed", completedAt: NOW }, ["refund.completed"]],
  [state("sending"), FACTS["withdrawal-failed"], { status: "failed", reason: "the transfer reverted on chain" }, ["refund.failed"]],
  // Above the approval threshold with the merchant's address: nothing sent nor announced until a second member approves it; rejected is final.
  [
    null,
    FACTS["create-awaiting-approval"],
    { status: "awaiting_approval", toAddress: PAYER, addressFrom: "merchant", claimExpiresAt: LATER },
    [],
  ],
  [state("awaiting_approval"), FACTS.approved, { status: "sending", claimExpiresAt: LATER, reason: null }, ["refund.created"]],
  [state("awaiting_approval"), FACTS["refused-at-approval"], { status: "failed", reason: "not enough tokens" }, ["refund.failed"]],
  [state("awaiting_approval"), FACTS.rejected, { status: "rejected", reason: "rejected: not this one", cancelledAt: NOW }, []],
];

describe("decideRefund: every state × every fact", () => {
  const states: (RefundState | null)[] = [null, ...REFUND_STATUSES.map((s) => state(s))];
  const cases = states.flatMap((s) => Object.values(FACTS).map((fact) => [s?.status ?? "new", s, fact] as const));

  it.each(cases)("%s × %o", (_name, from, fact) => {
    const decision = decideRefund(from, fact, NOW);
    const allowed = ALLOWED.find(([s, f]) => s?.status === from?.status && f.kind === fact.kind);
    if (allowed) {
      expect(decision).toEqual({ accepted: true, next: allowed[2], events: allowed[3] });
    } else {
      expect(decision.accepted).toBe(false);
      expect(!decision.accepted && decision.why).toMatch(
        new RegExp(`${fact.kind} does not apply to a ${(from?.status ?? "new").replace("_", " ")} refund`),
      );
    }
  });
});

describe("decideRefund: the claim's deadline, as `now` (the database's clock) says", () => {
  it("a refund with the merchant's address is sent at once", () => {
    expect(decideRefund(null, { kind: "create", toAddress: PAYER, claimExpiresAt: LATER }, NOW)).toEqual({
      accepted: true,
      next: { status: "sending", toAddress: PAYER, addressFrom: "merchant", claimExpiresAt: LATER },
      events: ["refund.created"],
    });
  });

  it("a claim at or after the deadline is refused as expired, and the expiry applies from that instant on", () => {
    for (const deadline of [NOW, EARLIER]) {
      expect(decideRefund(state("awaiting_address", deadline), FACTS.claim, NOW)).toEqual({
        accepted: false,
        why: "the claim expired",
        expired: true,
      });
      expect(decideRefund(state("awaiting_address", deadline), FACTS.expiry, NOW)).toEqual({
        accepted: true,
        next: { status: "cancelled", reason: CLAIM_EXPIRED, cancelledAt: NOW },
        events: [],
      });
    }
  });

  it("a claim one millisecond before the deadline is taken, and is not expired", () => {
    const deadline = new Date(NOW.getTime() + 1);
    expect(decideRefund(state("awaiting_address", deadline), FACTS.claim, NOW).accepted).toBe(true);
    expect(decideRefund(state("awaiting_address", deadline), FACTS.expiry, NOW).accepted).toBe(false);
  });

  it("the deadline means nothing once the payer has claimed it: a sending refund still completes or fails", () => {
    expect(decideRefund(state("sending", EARLIER), FACTS["withdrawal-completed"], NOW).accepted).toBe(true);
    expect(decideRefund(state("sending", EARLIER), FACTS.expiry, NOW).accepted).toBe(false);
  });

  it("the merchant may cancel a claim past its deadline that nobody has expired yet", () => {
    expect(decideRefund(state("awaiting_address", EARLIER), FACTS.cancel, NOW)).toMatchObject({
      accepted: true,
      next: { status: "cancelled" },
    });
  });

  it("a claim that waits for funds is refused as expired past the deadline; a refund waiting for funds never expires", () => {
    expect(decideRefund(state("awaiting_address", EARLIER), FACTS["claim-awaiting-funds"], NOW)).toEqual({
      accepted: false,
      why: "the claim expired",
      expired: true,
    });
    expect(decideRefund(state("awaiting_funds", EARLIER), FACTS.expiry, NOW).accepted).toBe(false);
    expect(decideRefund(state("awaiting_funds", EARLIER), FACTS["funds-arrived"], NOW).accepted).toBe(true);
  });

  it("keeps long reasons short", () => {
    const decision = decideRefund(state("sending"), { kind: "withdrawal-failed", reason: "x".repeat(2000) }, NOW);
    expect(decision.accepted && decision.next.reason?.length).toBe(500);
  });
});

describe("decideRefund: above the approval threshold, the destination is approved with the amount", () => {
  const claimable = (claimExpiresAt = LATER) => state("awaiting_address", claimExpiresAt, { approvalOnClaim: true });

  it("a claim without an address opens for the payer, announced, and marked to go to approval once claimed", () => {
    expect(decideRefund(null, { kind: "create", toAddress: null, claimExpiresAt: LATER, approvalOnClaim: true }, NOW)).toEqual({
      accepted: true,
      next: { status: "awaiting_address", toAddress: null, addressFrom: null, claimExpiresAt: LATER, approvalOnClaim: true },
      events: ["refund.created"],
    });
  });

  it("never sends an address above the threshold at once: that is create-awaiting-approval", () => {
    expect(decideRefund(null, { kind: "create", toAddress: PAYER, claimExpiresAt: LATER, approvalOnClaim: true }, NOW).accepted).toBe(
      false,
    );
  });

  it("the payer's claim goes to approval with its address; it is never sent (nor waits for funds) before", () => {
    expect(decideRefund(claimable(), FACTS["claim-for-approval"], NOW)).toEqual({
      accepted: true,
      next: { status: "awaiting_approval", toAddress: PAYER, addressFrom: "payer", reason: null },
      events: [],
    });
    expect(decideRefund(claimable(), FACTS.claim, NOW).accepted).toBe(false);
    expect(decideRefund(claimable(), FACTS["claim-awaiting-funds"], NOW).accepted).toBe(false);
  });

  it("a claim for approval after the deadline is refused as expired", () => {
    expect(decideRefund(claimable(NOW), FACTS["claim-for-approval"], NOW)).toEqual({
      accepted: false,
      why: "the claim expired",
      expired: true,
    });
  });

  it("approving the claimed address sends it without announcing the refund again", () => {
    const claimed = state("awaiting_approval", LATER, { approvalOnClaim: true });
    expect(decideRefund(claimed, FACTS.approved, NOW)).toEqual({
      accepted: true,
      next: { status: "sending", claimExpiresAt: LATER, reason: null },
      events: [],
    });
  });

  it("never approves an amount without where it goes (a refund asked for before this rule)", () => {
    const addressless = state("awaiting_approval", LATER, { toAddress: null });
    expect(decideRefund(addressless, FACTS.approved, NOW)).toMatchObject({ accepted: false });
    expect(
      decideRefund(addressless, { kind: "approved", to: "awaiting_funds", claimExpiresAt: LATER, reason: "short" }, NOW).accepted,
    ).toBe(false);
    // It can still be rejected.
    expect(decideRefund(addressless, FACTS.rejected, NOW).accepted).toBe(true);
  });
});
