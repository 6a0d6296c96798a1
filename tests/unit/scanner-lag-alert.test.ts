import { describe, expect, it } from "vitest";
import { LAG_ALERT_BLOCKS, scannerBehind } from "@/lib/ops/health/status";
import { SCHEDULE } from "@/lib/ops/jobs/schedule";

/** BSC mainnet's block time since the Fermi hard fork (January 2026). */
const BLOCK_SECONDS = 0.45;

describe("the operator's scanner-behind threshold at 0.45 s blocks", () => {
  it("is about 20 s of blocks, as it was when blocks were 1 s", () => {
    expect(LAG_ALERT_BLOCKS * BLOCK_SECONDS).toBeGreaterThanOrEqual(20);
    expect(LAG_ALERT_BLOCKS * BLOCK_SECONDS).toBeLessThan(30);
  });

  it("is not reached by the minute's gap between two Inngest scan runs on a healthy service", () => {
    const { rounds, everyMs } = SCHEDULE.scan.inngest;
    const gapSeconds = 60 - ((rounds - 1) * everyMs) / 1000;
    // The gap's blocks, the poll's own round and CONFIRMATIONS=3's two blocks under the head.
    const healthyLag = Math.ceil(gapSeconds / BLOCK_SECONDS) + Math.ceil(everyMs / 1000 / BLOCK_SECONDS) + 2;
    expect(scannerBehind(healthyLag)).toBe(false);
  });

  it("flags a lag above it, and not an unknown one", () => {
    expect(scannerBehind(LAG_ALERT_BLOCKS)).toBe(false);
    expect(scannerBehind(LAG_ALERT_BLOCKS + 1)).toBe(true);
    expect(scannerBehind(null)).toBe(false);
  });
});
