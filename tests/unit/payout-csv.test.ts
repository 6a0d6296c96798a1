import { describe, expect, it } from "vitest";
import { parsePayoutCsv } from "@/lib/domain/payouts/payout-csv";

const A = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

describe("parsePayoutCsv", () => {
  it("numbers rows by their line in the file, counting the header and blank lines", () => {
    const rows = parsePayoutCsv(`\uFEFFaddress,amount,reference\r\n${A},1.5,inv-1\r\n\r\n${A},2\r\n`);
    expect(rows.map((r) => [r.line, r.amount, r.reference, r.problem])).toEqual([
      [2, "1.5", "inv-1", null],
      [4, "2", "", null],
    ]);
  });

  it("takes a file without a header, and a quoted reference holding commas and quotes", () => {
    const rows = parsePayoutCsv(`${A},3,"Smith, J. ""March"""`);
    expect(rows).toEqual([{ line: 1, address: A, amount: "3", reference: 'Smith, J. "March"', problem: null }]);
  });

  it("says what is wrong with a line's shape: a missing amount, too many columns", () => {
    const rows = parsePayoutCsv(`address,amount\n${A}\n${A},1,ref,extra`);
    expect(rows.map((r) => [r.line, r.problem])).toEqual([
      [2, "has no amount; expected address,amount,reference"],
      [3, "has 4 columns; expected address,amount,reference"],
    ]);
  });
});
