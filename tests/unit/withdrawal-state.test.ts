import { describe, expect, it } from "vitest";
import {
  decideWithdrawal,
  type NonceFacts,
  releasesIdempotencyKey,
  settleWithdrawal,
  type WithdrawalFact,
  type WithdrawalFacts,
} from "@/lib/domain/withdrawals/withdrawal-state";

const facts = (nonce: NonceFacts, overrides: Partial<WithdrawalFacts> = {}): WithdrawalFacts => ({
  nonce,
  broadcastError: null,
  ...overrides,
});
/** `confirmations` of the 3 the network asks for here (confirmations.ts decides "confirmed" from the head and the setting). */
const by = (who: "withdrawal" | "cancel", success: boolean, confirmations: number): NonceFacts => ({
  state: "settled",
  by: who,
  success,
  confirmed: confirmations >= 3,
});

describe("settleWithdrawal: final only when the ledger holds the receipt of the transaction that used the nonce", () => {
  it.each([
    ["nothing mined yet", facts({ state: "open" }), { status: "submitted" }],
    ["refused once, its nonce not settled yet", facts({ state: "open" }, { broadcastError: "rejected" }), { status: "submitted" }],
    ["the withdrawal mined, not yet confirmed", facts(by("withdrawal", true, 2)), { status: "submitted" }],
    ["the withdrawal (or its re-priced copy) mined and confirmed", facts(by("withdrawal", true, 3)), { status: "completed" }],
    [
      "the withdrawal mined although it had been refused once (a mempool kept it)",
      facts(by("withdrawal", true, 5), { broadcastError: "rejected" }),
      { status: "completed" },
    ],
    ["the filler mined, not yet confirmed", facts(by("cancel", true, 1)), { status: "submitted" }],
    // A lagging node, a leaked key: the tokens may have left. Never failed, never a released key.
    [
      "the nonce went to a transaction the service did not sign",
      facts({ state: "taken-by-other" }),
      { status: "submitted", needsOperator: true },
    ],
  ] as const)("%s", (_name, input, expected) => {
    const settlement = settleWithdrawal(input);
    expect(settlement).toEqual(expected);
    expect(releasesIdempotencyKey(settlement)).toBe(false);
  });

  it.each([
    [
      "the filler took the nonce: nothing was sent",
      facts(by("cancel", true, 3), { broadcastError: "invalid sender" }),
      /the network refused the transaction \(invalid sender\); its nonce was filled.*nothing was sent/,
    ],
    ["a stuck withdrawal's nonce was filled", facts(by("cancel", true, 3)), /was not mined; its nonce was filled.*nothing was sent/],
    ["the withdrawal reverted on chain", facts(by("withdrawal", false, 3)), /reverted on chain; the tokens were not sent/],
  ] as const)("fails, and frees the Idempotency-Key, when %s", (_name, input, reason) => {
    const settlement = settleWithdrawal(input);
    expect(settlement.status).toBe("failed");
    expect(settlement.status === "failed" && settlement.reason).toMatch(reason);
    expect(releasesIdempotencyKey(settlement)).toBe(true);
  });

  it("stays submitted until its block is confirmed, however it ended", () => {
    for (const who of ["withdrawal", "cancel"] as const) {
      for (const success of [true, false]) expect(settleWithdrawal(facts(by(who, success, 2))).status).toBe("submitted");
    }
  });
});

describe("decideWithdrawal: (state, fact, now) → the one change its writer makes", () => {
  const now = new Date("2026-11-27T10:00:00Z");
  const nonce = (n: NonceFacts, broadcastError: string | null = null): WithdrawalFact => ({ kind: "nonce", nonce: n, broadcastError });

  it.each([
    [
      "completed: mined and confirmed",
      "submitted",
      nonce(by("withdrawal", true, 3)),
      { status: "completed", failureReason: null, confirmedAt: now },
      ["withdrawal.completed"],
      false,
    ],
    [
      "failed: reverted",
      "submitted",
      nonce(by("withdrawal", false, 3)),
      { status: "failed", confirmedAt: null },
      ["withdrawal.failed"],
      true,
    ],
    [
      "failed: its nonce filled",
      "submitted",
      nonce(by("cancel", true, 3), "rejected"),
      { status: "failed", confirmedAt: null },
      ["withdrawal.failed"],
      true,
    ],
  ] as const)("%s", (_name, status, fact, next, events, releasesKey) => {
    const decision = decideWithdrawal({ status }, fact, now);
    expect(decision).toMatchObject({ accepted: true, next, events, releasesKey });
    if (decision.accepted && decision.next.status === "failed") expect(decision.next.failureReason).toMatch(/nothing was sent|not sent/);
  });

  it.each([
    ["its nonce still open", "submitted", nonce({ state: "open" }), false],
    ["its winner not confirmed yet", "submitted", nonce(by("withdrawal", true, 2)), false],
    ["its nonce taken by a stranger (the operator looks)", "submitted", nonce({ state: "taken-by-other" }), true],
    ["already completed", "completed", nonce(by("cancel", true, 3)), false],
    ["already failed", "failed", nonce(by("withdrawal", true, 3)), false],
  ] as const)("changes nothing when %s", (_name, status, fact, needsOperator) => {
    const decision = decideWithdrawal({ status }, fact, now);
    expect(decision.accepted).toBe(false);
    expect(!decision.accepted && decision.needsOperator === true).toBe(needsOperator);
  });
});

describe("decideWithdrawal: a withdrawal waiting for a second member", () => {
  const now = new Date("2026-11-27T12:00:00Z");
  it.each([
    ["approved: on to submitted, its key kept", { kind: "approved" }, { status: "submitted", failureReason: null }, [], false],
    [
      "refused at approval: failed, announced, its key free",
      { kind: "refused-at-approval", reason: "refused when approved: not enough tokens" },
      { status: "failed", failureReason: "refused when approved: not enough tokens" },
      ["withdrawal.failed"],
      true,
    ],
    [
      "rejected or expired: rejected, no withdrawal event, its key free",
      { kind: "rejected", reason: "its approval expired" },
      { status: "rejected", failureReason: "its approval expired" },
      [],
      true,
    ],
  ] as const)("%s", (_name, fact, next, events, releasesKey) => {
    expect(decideWithdrawal({ status: "awaiting_approval" }, fact as WithdrawalFact, now)).toMatchObject({
      accepted: true,
      next,
      events,
      releasesKey,
    });
  });

  it.each(["submitted", "completed", "failed", "rejected"] as const)("an approval outcome changes nothing once %s", (status) => {
    for (const fact of [{ kind: "approved" }, { kind: "rejected", reason: "x" }, { kind: "refused-at-approval", reason: "x" }] as const)
      expect(decideWithdrawal({ status }, fact, now).accepted).toBe(false);
  });

  it("a nonce fact does not apply to a waiting withdrawal (it has no nonce)", () => {
    const fact: WithdrawalFact = { kind: "nonce", nonce: { state: "open" }, broadcastError: null };
    expect(decideWithdrawal({ status: "awaiting_approval" }, fact, now).accepted).toBe(false);
  });
});
