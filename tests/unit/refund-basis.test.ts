/**
 * A refund's basis as requested: only a fiat-priced payment takes one; "fiat"
 * takes a fiat amount in the payment's currency (default its whole price), never a token amount.
 */
import { describe, expect, it } from "vitest";
import type { SessionWithToken } from "@/lib/domain/payments/session-view";
import { requestedBasis } from "@/lib/domain/refunds/refund-rate";

const session = (fiat: { currency: string; fiatAmount: bigint } | null) =>
  ({
    session: { currency: fiat?.currency ?? null, fiatAmount: fiat?.fiatAmount ?? null },
    token: { symbol: "USDT", decimals: 18, contractAddress: "0x0000000000000000000000000000000000000001" },
  }) as unknown as SessionWithToken;
const usd = session({ currency: "USD", fiatAmount: 2500n });
const jpy = session({ currency: "JPY", fiatAmount: 3000n });

describe("requestedBasis", () => {
  it("is none for a token-priced payment, and refuses a basis or a fiat amount there", () => {
    expect(requestedBasis(session(null), { amount: "1" })).toEqual({ kind: null });
    expect(() => requestedBasis(session(null), { basis: "tokens" })).toThrow(
      expect.objectContaining({ reason: "refund-basis-token-priced" }),
    );
    expect(() => requestedBasis(session(null), { fiatAmount: "1" })).toThrow(
      expect.objectContaining({ reason: "refund-basis-token-priced" }),
    );
  });

  it("is tokens by default on a fiat-priced payment", () => {
    expect(requestedBasis(usd, {})).toEqual({ kind: "tokens" });
    expect(requestedBasis(usd, { basis: "tokens", amount: "3" })).toEqual({ kind: "tokens" });
    expect(() => requestedBasis(usd, { fiatAmount: "3" })).toThrow(
      expect.objectContaining({ reason: "refund-fiat-amount-needs-fiat-basis" }),
    );
  });

  it("fiat: the whole price by default, else the amount in the payment's currency's minor units", () => {
    expect(requestedBasis(usd, { basis: "fiat" })).toEqual({
      kind: "fiat",
      fiat: { currency: "USD", minor: 2500n, minorDigits: 2 },
      explicit: false,
    });
    expect(requestedBasis(usd, { basis: "fiat", fiatAmount: "10.5" })).toMatchObject({ fiat: { minor: 1050n }, explicit: true });
    expect(requestedBasis(jpy, { basis: "fiat", fiatAmount: "1200" })).toMatchObject({
      fiat: { currency: "JPY", minor: 1200n, minorDigits: 0 },
    });
    expect(() => requestedBasis(jpy, { basis: "fiat", fiatAmount: "1.5" })).toThrow(
      expect.objectContaining({ reason: "amount-too-precise" }),
    );
    expect(() => requestedBasis(usd, { basis: "fiat", fiatAmount: "0.00" })).toThrow(expect.objectContaining({ reason: "amount-zero" }));
    expect(() => requestedBasis(usd, { basis: "fiat", amount: "1" })).toThrow(
      expect.objectContaining({ reason: "refund-amount-with-fiat-basis" }),
    );
  });
});
