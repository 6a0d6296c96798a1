import { describe, expect, it } from "vitest";
import { formatAmount, parseAmount, readableDecimal } from "@/lib/base/money";
import { tokenTransferUri } from "@/lib/domain/payments/eip681";

describe("parseAmount", () => {
  it.each([
    ["10.5", 18, 10_500_000_000_000_000_000n],
    ["1", 6, 1_000_000n],
    ["0.000001", 6, 1n],
    ["123456.123456", 6, 123_456_123_456n],
    ["0.5", 0 + 1, 5n],
  ])("%s with %i decimals → %s base units", (value, decimals, units) => expect(parseAmount(value, decimals)).toBe(units));

  it.each([
    ["abc", "format"],
    ["-1", "format"],
    ["+1", "format"],
    ["1e5", "format"],
    ["", "format"],
    [" 1", "format"],
    ["1 ", "format"],
    ["1,5", "format"],
    [".5", "format"],
    ["1.", "format"],
    ["01", "format"],
    ["0x10", "format"],
    ["Infinity", "format"],
    ["0", "zero"],
    ["0.000", "zero"],
    ["0.0000001", "precision"],
    ["1.1234567", "precision"],
    ["9".repeat(80), "range"],
  ])("%j → %s", (value, problem) => expect(parseAmount(value, 6)).toBe(problem));

  it("caps at uint256", () => {
    expect(parseAmount((2n ** 256n - 1n).toString(), 0)).toBe(2n ** 256n - 1n);
    expect(parseAmount((2n ** 256n).toString(), 0)).toBe("range");
  });
});

describe("formatAmount", () => {
  it.each([
    [10_500_000_000_000_000_000n, 18, "10.5"],
    [1_000_000n, 6, "1"],
    [1n, 6, "0.000001"],
    [0n, 18, "0"],
    [123n, 0, "123"],
  ])("%s with %i decimals → %s", (units, decimals, text) => expect(formatAmount(units, decimals)).toBe(text));

  it("round-trips", () => {
    for (const text of ["0.1", "42", "3.14159", "1000000.000001"]) {
      expect(formatAmount(parseAmount(text, 6) as bigint, 6)).toBe(text);
    }
  });
});

describe("tokenTransferUri", () => {
  it("is the EIP-681 transfer form with base units", () => {
    expect(tokenTransferUri({ tokenContract: "0xAb", chainId: 56, depositAddress: "0xCd", units: 10n ** 18n })).toBe(
      "ethereum:0xAb@56/transfer?address=0xCd&uint256=1000000000000000000",
    );
  });
});

describe("readableDecimal (for reading only: the exact amount stays what is recorded)", () => {
  it.each([
    ["0.083166666666666667", 8, 0, "0.08316667"],
    ["0.083166664", 8, 0, "0.08316666"],
    ["0.083166665", 8, 0, "0.08316667"],
    ["25", 8, 0, "25"],
    ["12.5", 8, 0, "12.5"],
    ["0.999999999", 8, 0, "1"],
    ["1.00000000", 8, 2, "1.00"],
    ["600.12345678", 8, 2, "600.12345678"],
    ["0.00000000001", 8, 0, "0"],
    ["not a number", 8, 0, "not a number"],
  ])("%s, at most %i decimals and at least %i → %s", (value, most, least, shown) =>
    expect(readableDecimal(value, most, least)).toBe(shown),
  );
});
