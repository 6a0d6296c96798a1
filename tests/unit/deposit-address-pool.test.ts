import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/base/errors";
import { DepositAddressPool } from "@/lib/domain/payments/deposit-address-pool";

/** A stand-in for deposit_index_seq and the deriver, counting what the pool asks of them. */
function fakeSource(options: { failReserve?: () => boolean; noKeyFor?: Set<number>; deriveDelayMs?: number } = {}) {
  let next = 0;
  const reserved: number[] = [];
  const calls = { reserve: 0, derive: 0 };
  return {
    reserved,
    calls,
    reserve: async (count: number) => {
      calls.reserve++;
      await Promise.resolve();
      if (options.failReserve?.()) throw new Error("database unavailable");
      const indices = Array.from({ length: count }, () => next++);
      reserved.push(...indices);
      return indices;
    },
    derive: async (indices: number[]) => {
      calls.derive++;
      if (options.deriveDelayMs) await new Promise((r) => setTimeout(r, options.deriveDelayMs));
      return indices.map((i) => (options.noKeyFor?.has(i) ? null : (`0x${i.toString(16).padStart(40, "0")}` as Address)));
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe("DepositAddressPool", () => {
  it("never hands an index out twice, also to hundreds of concurrent takers, and every index came from the sequence", async () => {
    const source = fakeSource({ deriveDelayMs: 1 });
    const pool = new DepositAddressPool({ ...source, batchSize: 16 });
    const taken = await Promise.all(Array.from({ length: 500 }, () => pool.take()));
    const indices = taken.map((t) => t.index);
    expect(new Set(indices).size).toBe(500);
    expect(new Set(taken.map((t) => t.address)).size).toBe(500);
    for (const index of indices) expect(source.reserved).toContain(index);
    // Batches, not a round trip per address.
    expect(source.calls.reserve).toBeLessThanOrEqual(Math.ceil(500 / 16) + 2);
  });

  it("refills in the background before it runs dry, with one refill for many takers", async () => {
    const source = fakeSource();
    const pool = new DepositAddressPool({ ...source, batchSize: 10, lowWater: 4 });
    await pool.take(); // the first take waits for the first batch
    expect(source.calls.reserve).toBe(1);
    expect(pool.size).toBe(9);
    for (let i = 0; i < 5; i++) await pool.take(); // 4 left: at the low-water mark
    await settle();
    expect(source.calls.reserve).toBe(2); // refilled without anyone waiting for an empty pool
    expect(pool.size).toBe(14);

    const shared = fakeSource();
    const waiting = new DepositAddressPool({ ...shared, batchSize: 50, lowWater: 10 });
    expect(waiting.size).toBe(0);
    await Promise.all(Array.from({ length: 20 }, () => waiting.take()));
    expect(shared.calls.reserve).toBe(1); // twenty takers on an empty pool share one refill
    expect(waiting.size).toBe(30);
  });

  it("skips an index that has no key, and says so when a whole batch has none", async () => {
    const source = fakeSource({ noKeyFor: new Set([1]) });
    const pool = new DepositAddressPool({ ...source, batchSize: 3 });
    expect((await Promise.all([pool.take(), pool.take()])).map((t) => t.index)).toEqual([0, 2]);
    const hopeless = new DepositAddressPool({ ...fakeSource({ noKeyFor: new Set([0, 1, 2]) }), batchSize: 3 });
    await expect(hopeless.take()).rejects.toThrow("no deposit address could be derived");
  });

  it("passes a failed refill to the takers waiting for it, and recovers with the next one", async () => {
    let failing = true;
    const source = fakeSource({ failReserve: () => failing });
    const pool = new DepositAddressPool({ ...source, batchSize: 4 });
    const results = await Promise.allSettled([pool.take(), pool.take()]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    failing = false;
    expect((await pool.take()).index).toBe(0);
  });

  it("takes an address back only when nothing used it: a refusal or an unconsumed result, never another failure", async () => {
    const pool = new DepositAddressPool({ ...fakeSource(), batchSize: 8 });
    await expect(pool.use(async () => Promise.reject(new AppError("NO_PACKAGE", "used up")))).rejects.toThrow("used up");
    expect((await pool.take()).index).toBe(0); // the refused create's address comes back first
    expect(
      await pool.use(
        async (a) => ({ replayed: true, index: a.index }),
        (r) => !r.replayed,
      ),
    ).toEqual({ replayed: true, index: 1 });
    expect((await pool.take()).index).toBe(1); // a replay used nothing
    await expect(pool.use(async () => Promise.reject(new Error("connection lost")))).rejects.toThrow("connection lost");
    expect((await pool.take()).index).toBe(3); // index 2 may have been stored: a gap, never a reuse
    expect(await pool.use(async (a) => a.index)).toBe(4);
    expect((await pool.take()).index).toBe(5);
  });
});
