import type { Hash, PublicClient, TransactionReceipt } from "viem";
import { describe, expect, it } from "vitest";
import { receiptIsFinal } from "@/lib/engine/ledger/finality";

/**
 * The comparison that makes a receipt an outcome (docs/design.md §17): at depth AND its block still the
 * chain's block at that height. A receipt served from a block a reorganisation removed names a
 * block hash the chain no longer has there: never final, however deep. The chain is a stub here on
 * purpose: this is the pure comparison; tests/integration/ledger-reorg.test.ts runs the lifecycle on anvil.
 */
const OURS = `0x${"aa".repeat(32)}` as Hash;
const OTHER = `0x${"bb".repeat(32)}` as Hash;
const receipt = { blockNumber: 100n, blockHash: OURS } as TransactionReceipt;

function chainWith(head: bigint, hashAt100: Hash, finalized = head) {
  return {
    getBlockNumber: async () => head,
    getBlock: async (args: { blockNumber?: bigint; blockTag?: string }) => {
      if (args.blockTag === "finalized") return { number: finalized, hash: OTHER };
      if (args.blockNumber === 100n) return { number: 100n, hash: hashAt100 };
      throw new Error(`unexpected getBlock ${String(args.blockNumber ?? args.blockTag)}`);
    },
  } as unknown as PublicClient;
}

describe("receiptIsFinal", () => {
  const blocks = { kind: "blocks", blocks: 3 } as const;
  const finalized = { kind: "finalized" } as const;

  it("is final at depth when the chain's block at that height is the receipt's", async () => {
    expect(await receiptIsFinal(chainWith(110n, OURS), blocks, receipt)).toBe(true);
    expect(await receiptIsFinal(chainWith(110n, OURS, 105n), finalized, receipt)).toBe(true);
  });

  it("is not final at depth when another block is now at that height (the receipt came from an orphaned block)", async () => {
    expect(await receiptIsFinal(chainWith(110n, OTHER), blocks, receipt)).toBe(false);
    expect(await receiptIsFinal(chainWith(110n, OTHER, 105n), finalized, receipt)).toBe(false);
  });

  it("is not final above the confirmed block, whatever the hash", async () => {
    expect(await receiptIsFinal(chainWith(101n, OURS), blocks, receipt)).toBe(false);
    expect(await receiptIsFinal(chainWith(110n, OURS, 99n), finalized, receipt)).toBe(false);
  });
});
