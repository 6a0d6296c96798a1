import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/base/config";
import { confirmedUnder, displayedConfirmations } from "@/lib/engine/chain/confirmations";

describe("confirmations: CONFIRMATIONS=1 is the block that holds the transfer", () => {
  it.each([
    // [head, CONFIRMATIONS, the highest block that counts]
    [100n, 1, 100n],
    [100n, 2, 99n],
    [100n, 3, 98n],
    // Nothing before its block exists: 0 reads like 1 (a withdrawal needs its receipt's block too).
    [100n, 0, 100n],
    [0n, 1, 0n],
  ])("head %s with %s: blocks up to %s count", (head, blocks, expected) => {
    expect(confirmedUnder(head, blocks)).toBe(expected);
  });

  it("shows the confirmations a page waits for: the blocks asked, or the block and BSC's usual two more when finalized", () => {
    expect(displayedConfirmations({ kind: "blocks", blocks: 0 })).toBe(1);
    expect(displayedConfirmations({ kind: "blocks", blocks: 3 })).toBe(3);
    expect(displayedConfirmations({ kind: "finalized" })).toBe(3);
  });
});

describe("CONFIRMATIONS in the environment", () => {
  const base = {
    NODE_ENV: "test",
    BSC_RPC_URL: "https://rpc.example",
    MASTER_MNEMONIC: "test test test test test test test test test test test junk",
    NEXTAUTH_SECRET: "0123456789abcdef0123",
  };

  it.each([
    [undefined, { kind: "blocks", blocks: 3 }],
    ["1", { kind: "blocks", blocks: 1 }],
    ["12", { kind: "blocks", blocks: 12 }],
    ["finalized", { kind: "finalized" }],
  ])("%s", (setting, finality) => {
    const config = parseConfig({ ...base, ...(setting === undefined ? {} : { CONFIRMATIONS: setting }) });
    expect(config.networks.find((n) => n.name === "bsc")?.finality).toEqual(finality);
  });

  it.each(["final", "-1", "1.5", "1001"])("refuses %s, naming the variable", (setting) => {
    expect(() => parseConfig({ ...base, CONFIRMATIONS: setting })).toThrow(/^Invalid configuration: CONFIRMATIONS /);
  });
});
