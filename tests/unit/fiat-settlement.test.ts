import { describe, expect, it } from "vitest";
import {
  creditIn,
  type LockedQuote,
  mayCountRepriced,
  type OfferedDeposit,
  rateWithinTolerance,
  repricedCredit,
  settlementQuote,
  shortfallUnitsOf,
} from "@/lib/domain/payments/fiat-settlement";
import { decideSession, evaluateSession, type SessionState } from "@/lib/domain/payments/session-state";

const usdt: LockedQuote = { tokenId: 1, contract: "0xaa", amount: 25_000000000000000000n, rate: "1.00000000" };
const usdc: LockedQuote = { tokenId: 2, contract: "0xbb", amount: 25_252525252525252526n, rate: "0.99000000" };
const six: LockedQuote = { tokenId: 3, contract: "0xcc", amount: 25_000000n, rate: "1.00000000" };
const quotes = new Map([usdt, usdc, six].map((q) => [q.contract, q]));
const T0 = new Date("2026-01-01T00:00:00Z");
let id = 1;
const deposit = (contract: string, amount: bigint, block: bigint, logIndex = 0): OfferedDeposit => ({
  id: id++,
  contract,
  amount,
  blockNumber: block,
  logIndex,
  blockTimestamp: T0,
  txHash: `0x${id.toString(16).padStart(64, "0")}`,
});

describe("a fiat session's settlement", () => {
  it("settles in the token of its first deposit by block and log index, whatever order they come in", () => {
    expect(settlementQuote(usdt, quotes, [deposit("0xbb", 1n, 10n, 2), deposit("0xaa", 1n, 10n, 1)])).toBe(usdt);
    expect(settlementQuote(usdt, quotes, [deposit("0xaa", 1n, 11n), deposit("0xbb", 1n, 10n)])).toBe(usdc);
  });

  it("stays in the token asked for when nothing offered has arrived (another token does not choose it)", () => {
    expect(settlementQuote(usdc, quotes, [])).toBe(usdc);
    expect(settlementQuote(usdc, quotes, [deposit("0xdd", 5n, 1n)])).toBe(usdc);
  });

  it("credits the settlement token itself exactly, and one token's whole quote as exactly the other's", () => {
    expect(creditIn(usdt, usdt, 123n)).toBe(123n);
    expect(creditIn(usdt, usdc, usdc.amount)).toBe(usdt.amount);
    expect(creditIn(usdc, usdt, usdt.amount)).toBe(usdc.amount);
    expect(creditIn(usdt, six, six.amount)).toBe(usdt.amount);
    expect(creditIn(six, usdt, usdt.amount)).toBe(six.amount);
  });

  it("rounds a credit down: never more than arrived", () => {
    // 1 base unit of a 6-decimal token is 10^12 of the 18-decimal one; 1 of the 18-decimal one is 0 of it.
    expect(creditIn(usdt, six, 1n)).toBe(1_000_000_000_000n);
    expect(creditIn(six, usdt, 999_999_999_999n)).toBe(0n);
    expect(creditIn(usdt, usdc, 1n)).toBe(0n);
  });
});

describe("the decider with a settlement", () => {
  const state: SessionState = {
    status: "pending",
    amount: 25n,
    expiresAt: new Date(T0.getTime() + 900_000),
    cancelledAt: null,
    cancelledAtBlock: null,
    completedAt: null,
    expiredAt: null,
    receivedAmount: 0n,
  };
  const paid = (amount: bigint) => ({ ...deposit("0xbb", amount, 1n), blockTimestamp: new Date(T0.getTime() + 10_000) });

  it("completes at the settlement's amount and writes its token, amount and rate", () => {
    const settle = { tokenId: 2, amount: 1000n, rate: "0.99000000", underpayBps: 0n };
    const decided = decideSession(
      state,
      { kind: "transfers-recorded", counted: [paid(1000n)], otherTokenIds: [], freshIds: [1], settle },
      T0,
    );
    expect(decided).toMatchObject({ accepted: true, next: { status: "completed", tokenId: 2, amount: 1000n, rate: "0.99000000" } });
    const short = decideSession(state, { kind: "transfers-recorded", counted: [paid(999n)], otherTokenIds: [], freshIds: [1], settle }, T0);
    expect(short).toMatchObject({ accepted: true, next: { status: "pending", receivedAmount: 999n, tokenId: 2 } });
  });

  it("without a settlement writes no token, amount or rate (token-priced sessions)", () => {
    const decided = decideSession(state, { kind: "transfers-recorded", counted: [paid(25n)], otherTokenIds: [], freshIds: [1] }, T0);
    expect(decided.accepted && "tokenId" in decided.next).toBe(false);
  });

  it("counts short by less than the tolerance as paid, short by exactly it or more as not", () => {
    const facts = {
      amount: 10_000n,
      expiresAt: state.expiresAt,
      cancelledAt: null,
      cancelledAtBlock: null,
      completedAt: null,
      underpayBps: 50n,
    };
    const at = (amount: bigint) => evaluateSession(facts, [paid(amount)], T0).status;
    expect(at(9_951n)).toBe("completed");
    expect(at(9_950n)).toBe("pending");
    expect(evaluateSession({ ...facts, underpayBps: 0n }, [paid(9_999n)], T0).status).toBe("pending");
  });

  it("at 0 bps (the default) takes the whole price but the rounding: one base unit per token that paid", () => {
    const facts = { amount: 10_000n, expiresAt: state.expiresAt, cancelledAt: null, cancelledAtBlock: null, completedAt: null };
    const at = (amount: bigint, shortfallUnits: bigint) =>
      evaluateSession({ ...facts, underpayBps: 0n, shortfallUnits }, [paid(amount)], T0).status;
    expect(at(9_999n, 1n)).toBe("completed");
    expect(at(9_998n, 1n)).toBe("pending");
    expect(at(9_998n, 2n)).toBe("completed");
    expect(at(9_990n, 1n)).toBe("pending"); // 0.1 % short
    // No allowance unless it is given: a token-priced session takes its whole amount.
    expect(evaluateSession(facts, [paid(9_999n)], T0).status).toBe("pending");
    // And the tolerance still adds to it: 50 bps takes 0.4 % short.
    expect(evaluateSession({ ...facts, underpayBps: 50n, shortfallUnits: 1n }, [paid(9_960n)], T0).status).toBe("completed");
    expect(shortfallUnitsOf([])).toBe(1n);
    expect(shortfallUnitsOf(["0xAa", "0xaa"])).toBe(1n);
    expect(shortfallUnitsOf(["0xaa", "0xbb"])).toBe(2n);
  });
});

describe("a late transfer re-priced at its block's rate", () => {
  const units = (rate: string) => BigInt(rate.replace(".", ""));
  const one = units("1.00000000");

  it("accepts a rate within the tolerance of the quote, either way, the bound itself included", () => {
    expect(rateWithinTolerance(one, units("1.01000000"), 100n)).toBe(true);
    expect(rateWithinTolerance(one, units("0.99000000"), 100n)).toBe(true);
    expect(rateWithinTolerance(one, units("1.01000001"), 100n)).toBe(false);
    expect(rateWithinTolerance(one, units("0.98999999"), 100n)).toBe(false);
    expect(rateWithinTolerance(one, one, 0n)).toBe(true);
    expect(rateWithinTolerance(one, units("1.00000001"), 0n)).toBe(false);
    expect(rateWithinTolerance(units("600.00000000"), units("605.99999999"), 100n)).toBe(true);
    expect(rateWithinTolerance(0n, one, 1000n)).toBe(false);
  });

  it("credits what arrived at the block's rate, rounded down", () => {
    expect(repricedCredit(25_200000n, one, units("0.99200000"))).toBe(24_998400n);
    expect(repricedCredit(10n, units("3.00000000"), units("1.00000000"))).toBe(3n);
    expect(() => repricedCredit(1n, 0n, one)).toThrow(RangeError);
  });

  it("queues only a transfer that could pay at the most favourable rate the tolerance allows", () => {
    const t = { underpayBps: 50n, rateToleranceBps: 100n };
    // 100 asked: 98.6 × 1.01 = 99.586 > 99.5 could pay; 98.4 × 1.01 = 99.384 could not.
    expect(mayCountRepriced(100_000n, 0n, 98_600n, t)).toBe(true);
    expect(mayCountRepriced(100_000n, 0n, 98_400n, t)).toBe(false);
    // What counted in the window adds to it; dust never queues.
    expect(mayCountRepriced(100_000n, 60_000n, 39_200n, t)).toBe(true);
    expect(mayCountRepriced(100_000n, 60_000n, 39_000n, t)).toBe(false);
    expect(mayCountRepriced(100_000n, 0n, 1n, t)).toBe(false);
    // No tolerance at all: the whole price at the quote's own rate, less the rounding allowance (one base unit per token).
    expect(mayCountRepriced(100_000n, 0n, 100_000n, { underpayBps: 0n, rateToleranceBps: 0n })).toBe(true);
    expect(mayCountRepriced(100_000n, 0n, 99_999n, { underpayBps: 0n, rateToleranceBps: 0n })).toBe(true);
    expect(mayCountRepriced(100_000n, 0n, 99_998n, { underpayBps: 0n, rateToleranceBps: 0n })).toBe(false);
    expect(mayCountRepriced(100_000n, 0n, 99_998n, { underpayBps: 0n, rateToleranceBps: 0n }, 2n)).toBe(true);
  });

  it("counts a re-priced transfer although it is after the deadline; an unmarked one stays late", () => {
    const facts = { amount: 100n, underpayBps: 50n, expiresAt: T0, cancelledAt: null, cancelledAtBlock: null, completedAt: null };
    const late = {
      id: 7,
      txHash: "0x07",
      blockNumber: 9n,
      logIndex: 0,
      blockTimestamp: new Date(T0.getTime() + 60_000),
      amount: 100n,
    };
    const now = new Date(T0.getTime() + 120_000);
    expect(evaluateSession(facts, [late], now)).toMatchObject({ status: "expired", lateTransferIds: [7] });
    expect(evaluateSession(facts, [{ ...late, repriced: true }], now)).toMatchObject({
      status: "completed",
      receivedAmount: 100n,
      txHash: "0x07",
      lateTransferIds: [],
    });
    // Never after a cancel.
    const cancelled = { ...facts, cancelledAt: T0, cancelledAtBlock: 5n };
    expect(evaluateSession(cancelled, [{ ...late, repriced: true }], now)).toMatchObject({ status: "cancelled", lateTransferIds: [7] });
  });
});
