import { describe, expect, it } from "vitest";
import { MAX_PAYOUT_ITEMS, PAYOUT_TRANSFER_GAS, payGasLimit, payoutChunkSize } from "@/lib/engine/chain/batch-payer";

describe("payoutChunkSize", () => {
  it("fills half a block's gas limit with items at their full transfer allowance", () => {
    const size = payoutChunkSize(30_000_000n, null);
    expect(payGasLimit(size)).toBeLessThanOrEqual(15_000_000n);
    expect(payGasLimit(size + 1)).toBeGreaterThan(15_000_000n);
    expect(size).toBe(114);
  });

  it("never exceeds 500 items on a large block, nor falls below one on a tiny one", () => {
    expect(payoutChunkSize(1_000_000_000n, null)).toBe(MAX_PAYOUT_ITEMS);
    expect(payoutChunkSize(100_000n, null)).toBe(1);
  });

  it("is lowered, never raised, by PAYOUT_CHUNK_SIZE", () => {
    expect(payoutChunkSize(30_000_000n, 40)).toBe(40);
    expect(payoutChunkSize(30_000_000n, 400)).toBe(114);
  });

  it("gives every transfer its whole allowance in the gas limit", () => {
    expect(payGasLimit(10) - payGasLimit(9)).toBeGreaterThan(PAYOUT_TRANSFER_GAS);
  });
});
