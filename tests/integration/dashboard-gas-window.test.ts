/**
 * The gas page reads its window of days through gas_charges (user_id, created_at): a
 * charge older than the window is not read, one inside is, and on PostgreSQL the read is served by
 * that index, not by every charge the merchant ever had. PGlite runs the behaviour; the EXPLAIN needs TEST_DATABASE_URL.
 */
import { type SQLWrapper, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db";
import { rowsOf } from "@/lib/db/rows";
import { gasChargesAfter, gasSpendByDay, gasSpentSince } from "@/lib/domain/gas/spend";
import { useTestDatabase } from "../helpers/database";

const db = useTestDatabase();
const NOW = new Date("2026-11-27T12:00:00Z");

describe("gas usage window", () => {
  let userId: number;
  beforeAll(async () => {
    [{ id: userId }] = rowsOf<{ id: number }>(
      await db().execute(sql`insert into users (email, password_hash) values ('g@gas.test', 'x') returning id`),
    ) as [{ id: number }];
    // 5,000 sweeps a day apart going back (most far outside any window), and one today; each charge carries its row's time.
    await db().execute(sql`insert into chain_transactions (id, network, wallet_role, wallet_index, wallet, nonce, kind, to_address, value,
        gas_limit, gas_price, tx_hash, status, gas_used, created_at)
      overriding system value
      select 5000 + i, 'bsc', 'gas_tank', 0, '0x00000000000000000000000000000000000000aa', i, 'sweep_gas',
        '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', 1000, 21000, 1, '0x' || md5('g' || i) || md5(i || 'g'), 'mined', 21000,
        ${NOW.toISOString()}::timestamptz - i * interval '1 day' + interval '1 hour'
      from generate_series(0, 5000) as i`);
    await db().execute(sql`insert into gas_charges (chain_tx_id, user_id, created_at)
      select ct.id, ${userId}, ct.created_at from chain_transactions ct where ct.id >= 5000`);
    await db().execute(sql`analyze`);
  });

  it("sums the days of the window only", async () => {
    const days = await gasSpendByDay(db(), userId, 30, NOW);
    // Today's row (i = 0) is 13:00 today; i = 1..29 fall on the 29 days before it: 30 rows, each 1000 + 21000×1 wei.
    expect(days).toHaveLength(30);
    expect(days.every((d) => d.wei === 22_000n && d.transactions === 1)).toBe(true);
    const today = new Date("2026-11-27T00:00:00Z");
    expect(await gasSpentSince(db(), userId, today)).toBe(22_000n);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("reads the window through gas_charges_user_created_idx on PostgreSQL", async () => {
    await db().execute(sql`set enable_seqscan = off`);
    const since = new Date("2026-10-29T00:00:00Z").toISOString();
    const plan = rowsOf<{ "QUERY PLAN": string }>(
      await db().execute(sql`explain select sum(ct.value) from gas_charges gc join chain_transactions ct on ct.id = gc.chain_tx_id
        where gc.user_id = ${userId} and gc.created_at >= ${since} and ct.created_at >= ${since}`),
    )
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    await db().execute(sql`reset enable_seqscan`);
    expect(plan).toContain("gas_charges_user_created_idx");
    expect(plan).not.toContain("Seq Scan on gas_charges");
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "reads each batch of the gas CSV from its bound in gas_charges_user_created_idx, never sorting the merchant's charges",
    async () => {
      // The statement gasChargesAfter sends, explained as it is (captured, not copied).
      let sent: SQLWrapper | undefined;
      const capture = {
        execute: async (query: SQLWrapper) => {
          sent = query;
          return [];
        },
      } as unknown as Db;
      await gasChargesAfter(capture, userId, { time: "2026-11-27T00:00:00.000000Z", id: 5_010 }, 50); // a batch, a small share of a big history
      expect(sent).toBeDefined();
      await db().execute(sql`set enable_seqscan = off`);
      const plan = rowsOf<{ "QUERY PLAN": string }>(await db().execute(sql`explain ${sent}`))
        .map((r) => r["QUERY PLAN"])
        .join("\n");
      await db().execute(sql`reset enable_seqscan`);
      expect(plan).toContain("gas_charges_user_created_idx");
      expect(plan).not.toContain("Sort");
    },
  );
});
