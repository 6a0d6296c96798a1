import { describe, expect, it } from "vitest";
import { explorerAddressUrl, explorerTxUrl } from "@/lib/web/dashboard/shared/explorer";

const USDT = "0x55d398326f99059fF775485246999027B3197955";
const HASH = `0x${"ab".repeat(32)}`;

describe("block explorer links (the catalogue's tokens, a payment's transactions)", () => {
  it("points a contract or address at BscScan of its own network", () => {
    expect(explorerAddressUrl("bsc", USDT)).toBe(`https://bscscan.com/address/${USDT}`);
    expect(explorerAddressUrl("bsc-testnet", USDT)).toBe(`https://testnet.bscscan.com/address/${USDT}`);
  });

  it("points a transaction at BscScan of its own network", () => {
    expect(explorerTxUrl("bsc", HASH)).toBe(`https://bscscan.com/tx/${HASH}`);
    expect(explorerTxUrl("bsc-testnet", HASH)).toBe(`https://testnet.bscscan.com/tx/${HASH}`);
  });

  it("gives no link on the embedded chain, which no explorer knows, nor on an unknown network", () => {
    expect(explorerAddressUrl("local", USDT)).toBeNull();
    expect(explorerTxUrl("local", HASH)).toBeNull();
    expect(explorerAddressUrl("constructor", USDT)).toBeNull(); // not an inherited property of the table
  });
});
