import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db/rows";
import { DepositAddressPool, depositAddressPool, reserveDepositIndices } from "@/lib/domain/payments/deposit-address-pool";
import { depositAddressDeriver } from "@/lib/engine/chain/deposit-address-deriver";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { TEST_MNEMONIC, useConfig } from "../helpers/config";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();

/** A pool as another process would have it: its own reservations from the same sequence. */
function processPool(batchSize: number) {
  const deriver = depositAddressDeriver(TEST_MNEMONIC);
  return new DepositAddressPool({ reserve: (n) => reserveDepositIndices(db(), n), derive: (i) => deriver.derive(i), batchSize });
}

async function highWater(): Promise<number> {
  const [row] = rowsOf<{ last: string | number }>(await db().execute(sql`select last_value as last from deposit_index_seq`));
  return Number(row!.last);
}

describe("deposit address pool on the database's sequence", () => {
  it("reserves a batch of indices in one statement, each value once", async () => {
    const [a, b] = await Promise.all([reserveDepositIndices(db(), 50), reserveDepositIndices(db(), 50)]);
    expect(new Set([...a!, ...b!]).size).toBe(100);
    expect(a).toEqual([...a!].sort((x, y) => x - y));
  });

  it("never gives one index to two processes taking at once, and derives each address from its index", async () => {
    const pools = [processPool(7), processPool(11), processPool(16)];
    const taken = await Promise.all(Array.from({ length: 120 }, (_, i) => pools[i % 3]!.take()));
    expect(new Set(taken.map((t) => t.index)).size).toBe(120);
    const ring = keyRingFor(TEST_MNEMONIC);
    for (const t of taken) expect(t.address).toBe(ring.depositAddress(t.index));
    expect(Math.max(...taken.map((t) => t.index))).toBeLessThanOrEqual(await highWater()); // recover scans up to it
  });

  it("after a crash (the pool and its unused indices lost) hands out only indices above everything reserved before", async () => {
    const lost = processPool(20);
    await lost.take();
    const reservedBefore = await highWater();
    const restarted = processPool(20);
    const after = await Promise.all(Array.from({ length: 25 }, () => restarted.take()));
    expect(Math.min(...after.map((t) => t.index))).toBeGreaterThan(reservedBefore);
  });

  it("keeps one pool per database handle", () => {
    useConfig({ MASTER_MNEMONIC: TEST_MNEMONIC });
    expect(depositAddressPool(db())).toBe(depositAddressPool(db()));
  });
});
