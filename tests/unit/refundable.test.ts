import { describe, expect, it } from "vitest";
import { type RefundBasis, refundAmounts } from "@/lib/domain/refunds/refundable";

const basis = (over: Partial<RefundBasis>): RefundBasis => ({
  status: "completed",
  amount: 100n,
  receivedAmount: 100n,
  lateAmount: 0n,
  refunded: 0n,
  ...over,
});

describe("refundAmounts", () => {
  it("refunds the overpaid part and the late transfers of a completed payment by default, up to everything that arrived", () => {
    expect(refundAmounts(basis({ receivedAmount: 130n }))).toEqual({ ok: true, refundable: 130n, byDefault: 30n });
    expect(refundAmounts(basis({ receivedAmount: 130n, lateAmount: 5n }))).toEqual({ ok: true, refundable: 135n, byDefault: 35n });
    // A part of the excess already went back: the rest of it.
    expect(refundAmounts(basis({ receivedAmount: 130n, refunded: 10n }))).toEqual({ ok: true, refundable: 120n, byDefault: 20n });
  });

  it("has no default for a completed payment with nothing (left) beyond its price: the price takes an explicit amount", () => {
    // An exact payment: a refund without an amount would give the goods away.
    expect(refundAmounts(basis({}))).toEqual({ ok: true, refundable: 100n, byDefault: null });
    // The excess went back already: a retried call without an amount must not refund the price.
    expect(refundAmounts(basis({ receivedAmount: 130n, refunded: 30n }))).toEqual({ ok: true, refundable: 100n, byDefault: null });
    expect(refundAmounts(basis({ receivedAmount: 130n, lateAmount: 5n, refunded: 40n }))).toEqual({
      ok: true,
      refundable: 95n,
      byDefault: null,
    });
  });

  it("refunds everything of an expired or cancelled payment: the merchant sold nothing", () => {
    expect(refundAmounts(basis({ status: "expired", receivedAmount: 40n }))).toEqual({ ok: true, refundable: 40n, byDefault: 40n });
    expect(refundAmounts(basis({ status: "cancelled", receivedAmount: 0n, lateAmount: 7n }))).toEqual({
      ok: true,
      refundable: 7n,
      byDefault: 7n,
    });
  });

  it("refuses a pending payment, one that received nothing, and one refunded in full", () => {
    expect(refundAmounts(basis({ status: "pending", receivedAmount: 50n }))).toEqual({ ok: false, reason: "pending" });
    expect(refundAmounts(basis({ status: "expired", receivedAmount: 0n }))).toEqual({ ok: false, reason: "nothing-received" });
    expect(refundAmounts(basis({ refunded: 100n }))).toEqual({ ok: false, reason: "all-refunded" });
  });
});
