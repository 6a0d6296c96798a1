import { describe, expect, it } from "vitest";
import {
  decideSession,
  evaluateSession,
  type SessionFact,
  type SessionFacts,
  type SessionState,
  type TransferFacts,
} from "@/lib/domain/payments/session-state";

const T0 = new Date("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const session = (overrides: Partial<SessionFacts> = {}): SessionFacts => ({
  amount: 100n,
  expiresAt: at(900),
  cancelledAt: null,
  cancelledAtBlock: null,
  completedAt: null,
  ...overrides,
});
let nextId = 1;
const transfer = (amount: bigint, second: number, block = BigInt(second), logIndex = 0): TransferFacts => ({
  id: nextId++,
  txHash: `0x${nextId.toString(16).padStart(64, "0")}`,
  blockNumber: block,
  logIndex,
  blockTimestamp: at(second),
  amount,
});

describe("evaluateSession", () => {
  it("is pending with nothing received before the deadline, expired after it", () => {
    expect(evaluateSession(session(), [], at(10))).toEqual({
      status: "pending",
      receivedAmount: 0n,
      overpaid: false,
      txHash: null,
      completedAt: null,
      lateTransferIds: [],
    });
    expect(evaluateSession(session(), [], at(900)).status).toBe("expired");
  });

  it("completes on an exact payment, with its txHash", () => {
    const t = transfer(100n, 30);
    const result = evaluateSession(session(), [t], at(40));
    expect(result).toMatchObject({ status: "completed", receivedAmount: 100n, overpaid: false, txHash: t.txHash, completedAt: at(40) });
  });

  it("adds partial payments up: pending until the amount is reached; txHash is first the first transfer, then the completing one", () => {
    const a = transfer(30n, 10);
    const b = transfer(50n, 20);
    const c = transfer(20n, 30);
    expect(evaluateSession(session(), [a], at(15))).toMatchObject({ status: "pending", receivedAmount: 30n, txHash: a.txHash });
    expect(evaluateSession(session(), [a, b], at(25))).toMatchObject({ status: "pending", receivedAmount: 80n, txHash: a.txHash });
    expect(evaluateSession(session(), [c, a, b], at(35))).toMatchObject({ status: "completed", receivedAmount: 100n, txHash: c.txHash });
  });

  it("completes with overpaid when more than the amount arrives", () => {
    const t = transfer(150n, 10);
    expect(evaluateSession(session(), [t], at(20))).toMatchObject({
      status: "completed",
      receivedAmount: 150n,
      overpaid: true,
      txHash: t.txHash,
    });
    const more = transfer(1n, 50);
    expect(evaluateSession(session({ completedAt: at(20) }), [transfer(100n, 10), more], at(60))).toMatchObject({
      status: "completed",
      receivedAmount: 101n,
      overpaid: true,
      completedAt: at(20),
    });
  });

  it("counts a transfer mined at or before expiresAt even when it is evaluated after expiry (expired → completed)", () => {
    const onTheDot = transfer(100n, 900);
    expect(evaluateSession(session(), [onTheDot], at(2000))).toMatchObject({
      status: "completed",
      txHash: onTheDot.txHash,
      lateTransferIds: [],
    });
  });

  it("treats transfers mined after expiry as late: status stays expired, nothing counted", () => {
    const lateOne = transfer(100n, 901);
    expect(evaluateSession(session(), [lateOne], at(1000))).toMatchObject({
      status: "expired",
      receivedAmount: 0n,
      txHash: null,
      lateTransferIds: [lateOne.id],
    });
  });

  it("keeps an in-time partial payment on an expired session: expired with receivedAmount", () => {
    const part = transfer(40n, 100);
    const tooLate = transfer(60n, 1000);
    expect(evaluateSession(session(), [part, tooLate], at(1100))).toMatchObject({
      status: "expired",
      receivedAmount: 40n,
      lateTransferIds: [tooLate.id],
    });
  });

  it("stays cancelled when what arrived before the cancel falls short: later transfers are late", () => {
    const before = transfer(40n, 10);
    const after = transfer(100n, 60);
    expect(evaluateSession(session({ cancelledAt: at(50) }), [before, after], at(70))).toMatchObject({
      status: "cancelled",
      receivedAmount: 40n,
      overpaid: false,
      lateTransferIds: [after.id],
    });
  });

  describe("cancel after payment: a transfer in a block up to the network's latest at cancel time counts", () => {
    // Several blocks share one second on BSC: block 500 was the latest when the cancel came at second 50.
    const cancelled = session({ cancelledAt: at(50), cancelledAtBlock: 500n });
    it.each([
      ["in an earlier block", 48, 498n, "completed"],
      ["in the latest block at cancel time", 50, 500n, "completed"],
      ["in the next block, of the very same second", 50, 501n, "cancelled"],
      ["two blocks later, still in that second", 50, 502n, "cancelled"],
    ] as const)("%s → %s", (_name, second, block, status) => {
      const paid = transfer(100n, second, block);
      const result = evaluateSession(cancelled, [paid], at(80));
      expect(result.status).toBe(status);
      expect(result.lateTransferIds).toEqual(status === "completed" ? [] : [paid.id]);
    });
  });

  describe("cancel after payment when the latest block could not be read: block time decides (≤ cancelledAt counts)", () => {
    it.each([
      ["mined before the cancel, confirmed after it", 40, "completed"],
      ["mined in the cancel's very second", 50, "completed"],
      ["mined a second after the cancel", 51, "cancelled"],
    ] as const)("%s → %s", (_name, minedAt, status) => {
      const paid = transfer(100n, minedAt);
      const result = evaluateSession(session({ cancelledAt: at(50) }), [paid], at(80));
      expect(result.status).toBe(status);
      expect(result.lateTransferIds).toEqual(status === "completed" ? [] : [paid.id]);
      expect(result.receivedAmount).toBe(status === "completed" ? 100n : 0n);
    });

    it("completes from partial payments that together reach the amount before the cancel; later ones stay late", () => {
      const a = transfer(60n, 20);
      const b = transfer(40n, 45);
      const late = transfer(5n, 70);
      expect(evaluateSession(session({ cancelledAt: at(50) }), [late, b, a], at(90))).toMatchObject({
        status: "completed",
        receivedAmount: 100n,
        txHash: b.txHash,
        completedAt: at(90),
        lateTransferIds: [late.id],
      });
    });
  });

  it("orders transfers by block and log index, so many payments in one block are counted deterministically", () => {
    const first = transfer(60n, 10, 5n, 1);
    const second = transfer(60n, 10, 5n, 7);
    const third = transfer(60n, 10, 5n, 3);
    const result = evaluateSession(session(), [second, first, third], at(11));
    expect(result).toMatchObject({ status: "completed", receivedAmount: 180n, overpaid: true, txHash: third.txHash });
  });

  it("is idempotent: evaluating the same facts twice gives the same answer", () => {
    const ts = [transfer(30n, 10), transfer(80n, 20)];
    const once = evaluateSession(session(), ts, at(30));
    expect(evaluateSession({ ...session(), completedAt: once.completedAt }, ts, at(99))).toEqual(once);
  });
});

describe("decideSession: every move of a session's status", () => {
  const state = (overrides: Partial<SessionState> = {}): SessionState => ({
    status: "pending",
    amount: 100n,
    expiresAt: at(900),
    cancelledAt: null,
    cancelledAtBlock: null,
    completedAt: null,
    expiredAt: null,
    receivedAmount: 0n,
    ...overrides,
  });
  const paid = (amount: bigint, second: number) => ({ ...transfer(amount, second), id: 1_000 + second });
  const recorded = (counted: TransferFacts[], fresh = counted, otherTokenIds: number[] = []): SessionFact => ({
    kind: "transfers-recorded",
    counted,
    otherTokenIds,
    freshIds: [...fresh.map((t) => t.id), ...otherTokenIds],
  });
  const merchantCancel: SessionFact = { kind: "cancelled-by-merchant", atBlock: 50n };
  const payerCancel: SessionFact = { kind: "cancelled-by-payer", atBlock: 50n };

  it.each([
    ["pending ── the amount arrives ──▶ completed", state(), recorded([paid(100n, 10)]), at(20), "completed", ["payment.completed"]],
    ["pending ── part of it ──▶ pending, partial", state(), recorded([paid(40n, 10)]), at(20), "pending", ["payment.partial"]],
    [
      "pending ── part of it, after the deadline ──▶ expired, partial first",
      state(),
      recorded([paid(40n, 10)]),
      at(900),
      "expired",
      ["payment.partial", "payment.expired"],
    ],
    ["pending ── expiry due ──▶ expired", state(), { kind: "expiry-due" }, at(900), "expired", ["payment.expired"]],
    ["pending ── the merchant cancels ──▶ cancelled", state(), merchantCancel, at(10), "cancelled", ["payment.cancelled"]],
    ["pending ── the payer cancels, nothing received ──▶ cancelled", state(), payerCancel, at(10), "cancelled", ["payment.cancelled"]],
    [
      "pending, part received ── the merchant cancels ──▶ cancelled",
      state({ receivedAmount: 40n }),
      merchantCancel,
      at(10),
      "cancelled",
      ["payment.cancelled"],
    ],
    [
      "expired ── a transfer mined in time, confirmed late ──▶ completed",
      state({ status: "expired", expiredAt: at(900) }),
      recorded([paid(100n, 899)]),
      at(950),
      "completed",
      ["payment.completed"],
    ],
    [
      "cancelled ── a transfer mined before the cancel's block ──▶ completed",
      state({ status: "cancelled", cancelledAt: at(10), cancelledAtBlock: 50n }),
      recorded([{ ...paid(100n, 9), blockNumber: 50n }]),
      at(20),
      "completed",
      ["payment.completed"],
    ],
    [
      "completed ── a further transfer ──▶ completed, late",
      state({ status: "completed", receivedAmount: 100n, completedAt: at(10) }),
      recorded([paid(100n, 10), paid(5n, 20)], [paid(5n, 20)]),
      at(30),
      "completed",
      ["payment.late"],
    ],
    [
      "expired ── a transfer after the deadline ──▶ expired, late",
      state({ status: "expired", expiredAt: at(900) }),
      recorded([paid(100n, 901)]),
      at(950),
      "expired",
      ["payment.late"],
    ],
  ] as const)("%s", (_, from, fact, now, status, events) => {
    const decision = decideSession(from, fact, now);
    expect(decision).toMatchObject({ accepted: true, next: { status }, events });
  });

  it.each([
    ["expiry before the deadline", state(), { kind: "expiry-due" }, at(899)],
    ["expiry of a completed session", state({ status: "completed", receivedAmount: 100n }), { kind: "expiry-due" }, at(950)],
    ["expiry of a cancelled session", state({ status: "cancelled", cancelledAt: at(10) }), { kind: "expiry-due" }, at(950)],
    ["a cancel at the deadline (it is due to expire)", state(), merchantCancel, at(900)],
    ["a cancel of a completed session", state({ status: "completed", receivedAmount: 100n }), merchantCancel, at(10)],
    ["a cancel of an expired session", state({ status: "expired", expiredAt: at(900) }), merchantCancel, at(950)],
    ["a second cancel", state({ status: "cancelled", cancelledAt: at(5) }), merchantCancel, at(10)],
    ["the payer's cancel once part has arrived (the shop's to settle)", state({ receivedAmount: 40n }), payerCancel, at(10)],
    ["the payer's cancel of a completed session", state({ status: "completed", receivedAmount: 100n }), payerCancel, at(10)],
  ] as const)("refuses %s, changing nothing", (_, from, fact, now) => {
    expect(decideSession(from, fact as SessionFact, now).accepted).toBe(false);
  });

  it("keeps what the shop needs of a cancel: when, and the network's latest block then", () => {
    expect(decideSession(state(), merchantCancel, at(10))).toMatchObject({ next: { cancelledAt: at(10), cancelledAtBlock: 50n } });
    expect(decideSession(state(), { kind: "cancelled-by-merchant", atBlock: null }, at(10))).toMatchObject({
      next: { cancelledAtBlock: null },
    });
    expect(decideSession(state(), { kind: "expiry-due" }, at(901))).toMatchObject({ next: { expiredAt: at(901) } });
  });

  it("marks late every deposit that does not count, other tokens included, and sums only the session token's late amount", () => {
    const inTime = paid(60n, 10);
    const afterDeadline = paid(30n, 901);
    const decision = decideSession(state(), recorded([inTime, afterDeadline], [afterDeadline], [77]), at(950));
    expect(decision).toMatchObject({
      accepted: true,
      next: { status: "expired", receivedAmount: 60n, late: true, lateAmount: 30n, lateDepositIds: [afterDeadline.id, 77] },
      events: ["payment.partial", "payment.expired", "payment.late"],
    });
  });

  it("keeps the first expiry's time when transfers are re-evaluated later", () => {
    const decision = decideSession(state({ status: "expired", expiredAt: at(900) }), recorded([paid(5n, 950)]), at(1_000));
    expect(decision).toMatchObject({ next: { status: "expired", expiredAt: at(900) } });
  });
});
