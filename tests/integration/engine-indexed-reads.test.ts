import { randomBytes } from "node:crypto";
import { inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { type Address, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/v1/payment/create/route";
import type { Db } from "@/lib/db";
import { setDatabase } from "@/lib/db";
import { type DatabaseHandle, openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { forwards } from "@/lib/db/schema";
import { addressesToReconcile, type Coverage } from "@/lib/ops/custody/reconcile-coverage";
import {
  claimWebhooksStep,
  dueForwardsStep,
  expireDueStep,
  forwardStep,
  planForwardsStep,
  scanNetworkStep,
  tendLedgerStep,
} from "@/lib/ops/jobs/steps";
import { type Merchant, setUpMerchant } from "../helpers/accounts";
import { chainClient, deployTestToken, useTestChain } from "../helpers/chain";
import { useConfig } from "../helpers/config";
import { withDatabase } from "../helpers/database";
import { fundGasTank, payTo, tokenBalance } from "../helpers/engine";
import { call } from "../helpers/http";

/**
 * The engine's cost follows open work, not history: a real batch of deposits — scanned,
 * planned, swept and confirmed on anvil — next to another merchant's long history (tens of
 * thousands of sessions, deposits and forwards, analysed so the planner knows the tables are big)
 * reads payment_sessions, deposits and forwards through indexes only: their seq_scan counters do
 * not move. PostgreSQL only: the counters are its statistics. A backend reports its counters when
 * it exits, so the batch runs on a pool of its own that is closed (and its backends seen gone)
 * before the counters are read; the setup's pool likewise before the first reading.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const chain = useTestChain({ chainId: 56 });
const MERCHANT_WALLET = "0x976EA74026E726554dB657fA54763abd0C3a0aa9" as Address;
const HISTORY = 40_000;
const WATCHED = ["payment_sessions", "deposits", "forwards"] as const;

describe.skipIf(!TEST_DATABASE_URL)("engine reads on a long history (PostgreSQL)", () => {
  const name = `bscpay_test_${randomBytes(6).toString("hex")}`;
  const url = withDatabase(TEST_DATABASE_URL ?? "postgres://unused", name);
  let admin: postgres.Sql;
  let database: DatabaseHandle;
  let observer: postgres.Sql;
  let merchant: Merchant;
  let usd: Address;

  beforeAll(async () => {
    // A database of its own (not useTestDatabase's), so that no pool but this test's is connected to it.
    admin = postgres(TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const template = process.env.PG_TEMPLATE_DATABASE;
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
    database = openPostgres(url, { max: 5 });
    await migrate(database.db);
    setDatabase(database);
    observer = postgres(url, { max: 1, onnotice: () => {} });
    useConfig({ BSC_RPC_URL: chain().url, NEXTAUTH_SECRET: "integration-test-secret-0123456789", CONFIRMATIONS: "0" });
    usd = await deployTestToken(chain().url, { symbol: "IDX" });
    merchant = await setUpMerchant({ contractAddress: usd, network: "bsc" });
    await fundGasTank(chain().url);
    await growHistory(database, await setUpMerchant({ contractAddress: usd, network: "bsc" }));
  });
  afterAll(async () => {
    await observer?.end();
    await database?.close();
    await admin?.unsafe(`drop database if exists ${name} with (force)`);
    await admin?.end();
  });

  /**
   * The sequential scans of the watched tables that `work` made, run on a pool of its own. Every
   * pool is closed before each reading: a backend's counters are reported when it exits.
   */
  async function seqScansDuring(work: (db: Db) => Promise<void>): Promise<Record<string, number>> {
    await database.close();
    const before = await seqScans();
    database = openPostgres(url, { max: 5 });
    setDatabase(database);
    await work(database.db);
    await database.close();
    const after = await seqScans();
    database = openPostgres(url, { max: 5 });
    setDatabase(database);
    return Object.fromEntries(WATCHED.map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)]));
  }

  /** Sequential scans so far of the watched tables, once every other backend of the database has exited (and so reported). */
  async function seqScans(): Promise<Record<string, number>> {
    for (let waited = 0; ; waited += 50) {
      const [others] =
        await observer`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
      if (others!.n === 0) break;
      if (waited > 20_000) throw new Error("the database's other backends did not exit");
      await new Promise((r) => setTimeout(r, 50));
    }
    await observer`select pg_stat_clear_snapshot()`;
    const rows = await observer`select relname, seq_scan::int as n from pg_stat_user_tables where relname in ${observer(WATCHED)}`;
    return Object.fromEntries(rows.map((r) => [r.relname as string, r.n as number]));
  }

  it("sweeps a batch without a sequential scan of payment_sessions, deposits or forwards", async () => {
    const addresses: Address[] = [];
    for (const amount of ["1", "2", "3", "4"]) {
      const res = await call(create, {
        method: "POST",
        headers: { "x-api-key": merchant.apiKey },
        body: { tokenId: merchant.tokenId, amount, merchantWallet: MERCHANT_WALLET },
      });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      addresses.push(res.body.data.depositAddress);
      await chainClient(chain().url).waitForTransactionReceipt({
        hash: await payTo(chain().url, usd, res.body.data.depositAddress, parseUnits(amount, 18)),
      });
    }
    const scans = await seqScansDuring(async (db) => {
      const planned = new Set<number>();
      const deadline = Date.now() + 45_000;
      for (let open = true; open; ) {
        if (Date.now() > deadline) throw new Error("the batch did not finish");
        for (let i = 0; i < 5 && (await scanNetworkStep(db, "bsc")).behind > 0; i++);
        for (const f of await planForwardsStep(db)) planned.add(f.forwardId);
        await expireDueStep(db);
        for (const { forwardId } of await dueForwardsStep(db)) {
          planned.add(forwardId);
          await forwardStep(db, forwardId);
        }
        await tendLedgerStep(db);
        await claimWebhooksStep(db);
        // By primary key: this test's own reads must not scan either.
        const statuses =
          planned.size === 0
            ? []
            : await db
                .select({ status: forwards.status })
                .from(forwards)
                .where(inArray(forwards.id, [...planned]));
        open = statuses.length < addresses.length || statuses.some((f) => f.status !== "completed");
        if (open) await new Promise((r) => setTimeout(r, 250));
      }
    });

    expect(await tokenBalance(chain().url, usd, MERCHANT_WALLET)).toBe(parseUnits("10", 18));
    expect(scans).toEqual({ payment_sessions: 0, deposits: 0, forwards: 0 });
  });

  it("chooses the addresses a reconciliation reads without a sequential scan", async () => {
    let coverage: Coverage | undefined;
    const scans = await seqScansDuring(async (db) => {
      coverage = (await addressesToReconcile(db, "bsc", { sampleSize: 100 })).coverage;
    });
    expect(coverage).toMatchObject({ sampled: 100 });
    expect(scans).toEqual({ payment_sessions: 0, deposits: 0, forwards: 0 });
  });
});

/**
 * Another merchant's history, written in SQL: HISTORY sessions, each paid once and forwarded
 * long ago. Then ANALYZE, so that the planner knows their size.
 */
async function growHistory(database: DatabaseHandle, other: Merchant): Promise<void> {
  const db = database.db;
  await db.execute(sql`
    insert into payment_sessions (id, user_id, api_key_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic,
                                  amount, received_amount, forward_to, status, expires_at, completed_at, created_at)
    select gen_random_uuid(), ${other.userId}, ${other.apiKeyId}, ${other.tokenId}, 'bsc', 56, 100000000 + g,
           '0x' || lpad(to_hex(g), 40, '0'), lpad(to_hex(g), 64, '0'), 1, 1, ${MERCHANT_WALLET}, 'completed',
           now() - interval '30 days', now() - interval '31 days', now() - interval '31 days'
    from generate_series(1, ${HISTORY}) g`);
  await db.execute(sql`
    insert into deposits (network, tx_hash, log_index, block_number, block_hash, block_timestamp, token_contract, from_address,
                          to_address, amount, session_id, needs_planning, created_at)
    select 'bsc', '0x' || lpad(to_hex(deposit_index), 64, '0'), 0, 1, '0x' || lpad('1', 64, '0'), created_at, '0x' || lpad('e', 40, '0'),
           ${MERCHANT_WALLET}, deposit_address, 1, id, false, created_at
    from payment_sessions where user_id = ${other.userId}`);
  await db.execute(sql`
    insert into forwards (deposit_id, session_id, network, from_address, to_address, token_contract, amount, status, completed_at, created_at)
    select id, session_id, 'bsc', to_address, ${MERCHANT_WALLET}, token_contract, amount, 'completed', block_timestamp, block_timestamp
    from deposits where block_number = 1`);
  await db.execute(sql`update deposits d set forward_id = f.id from forwards f where f.deposit_id = d.id and d.block_number = 1`);
  await db.execute(sql`analyze payment_sessions, deposits, forwards`);
}
