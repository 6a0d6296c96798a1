/**
 * The embedded chain (and the benchmarks) run at BSC mainnet's pace since the Fermi hard fork: a
 * block every 0.45 s — anvil 1.7.1 accepts a fractional --block-time — and the `finalized` tag two
 * blocks behind the head, as BSC's fast finality (anvil's is the head less two epochs by default:
 * 64 blocks, 29 s at this pace, unless epochs are one block long).
 */
import { describe, expect, it } from "vitest";
import { LOCAL_CHAIN_PACE } from "@/lib/engine/dev/local-chain";
import { useTestChain } from "../helpers/chain";

const chain = useTestChain({ chainId: 56, ...LOCAL_CHAIN_PACE });

describe("the embedded chain's pace", () => {
  it("mines a block about every 0.45 s", async () => {
    const client = chain().client;
    const first = await client.getBlockNumber({ cacheTime: 0 });
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 2_700));
    const mined = Number((await client.getBlockNumber({ cacheTime: 0 })) - first);
    const seconds = (Date.now() - started) / 1000;
    // 6 blocks in 2.7 s at 0.45 s; 1 s blocks would give 2 or 3. One block of slack each way for timer jitter.
    expect(mined).toBeGreaterThanOrEqual(Math.floor(seconds / 0.45) - 1);
    expect(mined).toBeLessThanOrEqual(Math.ceil(seconds / 0.45) + 1);
  });

  it("finalizes the head − 2, as BSC's fast finality", async () => {
    const client = chain().client;
    await client.mine({ blocks: 3 });
    // The finalized block read, then the head: the head may have moved on by a block, never back.
    for (let i = 0; i < 5; i++) {
      const finalized = await client.getBlock({ blockTag: "finalized" });
      const latest = await client.getBlock({ blockTag: "latest" });
      expect(latest.number - finalized.number).toBeGreaterThanOrEqual(2n);
      expect(latest.number - finalized.number).toBeLessThanOrEqual(3n);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});
