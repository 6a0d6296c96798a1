import { inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { type Address, createTestClient, http, parseEther, parseUnits, publicActions } from "viem";
import { createApiKey } from "@/lib/accounts/api-keys/create-api-key";
import { createUser } from "@/lib/accounts/users/create-user";
import { parseConfig, setConfig } from "@/lib/base/config";
import { type Db, setDatabase } from "@/lib/db";
import { type DatabaseHandle, openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { forwards, tokenCatalogue, tokens } from "@/lib/db/schema";
import { addDomain } from "@/lib/domain/merchant-domains/add-domain";
import { type CreatedSession, createPaymentSession } from "@/lib/domain/payments/create-session";
import { activatePlan } from "@/lib/domain/plans/activate-plan";
import { keyRingFor } from "@/lib/engine/chain/keys";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { dueForwardsStep, forwardStep, planForwardsStep, scanNetworkStep, tendLedgerStep } from "@/lib/ops/jobs/steps";
import { createBenchDatabase } from "./database";
import { payFrom } from "./pay";
import { BENCH_MNEMONIC } from "./server";
import { deployBenchToken } from "./token";

/**
 * (f) A sweep's database time against the size of the history (the engine's cost
 * follows open work). One sweep = SWEEP_PAYMENTS paid deposits scanned, planned, swept in one
 * EIP-7702 batch and confirmed, by the engine's job steps on anvil at 0.45 s blocks. It runs with
 * 10,000 and then 1,000,000 sessions in payment_sessions (grown in SQL; 60 % of them with a
 * deposit and a completed forward, as a real history has), ROUNDS times each.
 *
 * Database time is PostgreSQL's own account: pg_stat_database.active_time (ms the database's
 * backends spent executing statements) over the sweep, nothing of the bench's own waiting. A
 * backend reports it when it exits, so the sweep runs on a pool of its own, closed before and
 * after, and the figures are read once its backends are gone. The sequential scans of the
 * engine's three tables over the same sweep come from pg_stat_user_tables the same way.
 */
const SWEEP_PAYMENTS = Number(process.env.BENCH_SWEEP_PAYMENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_SWEEP_ROUNDS ?? 3);
const SIZES = [10_000, Number(process.env.BENCH_SWEEP_BIG ?? 1_000_000)];
const WATCHED = ["payment_sessions", "deposits", "forwards"];

export interface SweepFigures {
  sessions: number;
  /** Per round: database ms, wall ms, sequential scans of the watched tables. */
  rounds: { dbMs: number; wallMs: number; seqScans: number }[];
}

export async function measureSweepDatabaseTime(): Promise<SweepFigures[]> {
  const database = await createBenchDatabase("sweepdb");
  const anvil = await startAnvil({ chainId: 56, blockTime: 0.45 });
  const observer = postgres(database.url, { max: 1, onnotice: () => {} });
  let handle: DatabaseHandle = openPostgres(database.url, { max: 10 });
  try {
    await migrate(handle.db);
    setDatabase(handle);
    setConfig(
      parseConfig({
        NODE_ENV: "production",
        BSC_RPC_URL: anvil.url,
        MASTER_MNEMONIC: BENCH_MNEMONIC,
        NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
        CONFIRMATIONS: "1",
        LOG_LEVEL: "silent",
        SWEEP_MODE: "batched",
        SWEEP_BATCH_WAIT_MS: "0",
      }),
    );
    const db = handle.db;
    const token = await deployBenchToken(anvil.url);
    const user = await createUser(db, { email: "sweep@example.com", password: "benchmark password" });
    await activatePlan(db, user.id, "enterprise");
    await addDomain(db, user.id, "https://shop.example.com");
    await db.insert(tokenCatalogue).values({ network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 });
    const [tokenRow] = await db
      .insert(tokens)
      .values({ userId: user.id, network: "bsc", contractAddress: token, symbol: "BUSD", name: "Bench USD", decimals: 18 })
      .returning();
    const { record: key } = await createApiKey(db, user.id, "sweep");
    const chain = createTestClient({ mode: "anvil", transport: http(anvil.url) }).extend(publicActions);
    await chain.setBalance({ address: keyRingFor(BENCH_MNEMONIC).gasTankAddress(), value: parseEther("1000") });
    const tokenId = tokenRow!.id;

    const paySome = async () => {
      const sessions: CreatedSession[] = [];
      for (let i = 0; i < SWEEP_PAYMENTS; i++) sessions.push(await createPaymentSession(handle.db, key, { tokenId, amount: "1" }, null));
      await Promise.all(
        ANVIL_DEFAULT_KEYS.map(async (payer, p) => {
          for (let i = p; i < sessions.length; i += ANVIL_DEFAULT_KEYS.length)
            await payFrom(anvil.url, payer, token, sessions[i]!.depositAddress as Address, parseUnits("1", 18));
        }),
      );
      await new Promise((r) => setTimeout(r, 1000)); // a confirmation (CONFIRMATIONS=1) on top of the last payment
    };
    /** One sweep of the paid deposits on a fresh pool; its database time and scans as PostgreSQL reports them. */
    const sweep = async () => {
      await paySome();
      await handle.close();
      const before = await statistics(observer);
      handle = openPostgres(database.url, { max: 10 });
      setDatabase(handle);
      const started = performance.now();
      await sweepUntilDone(handle.db);
      const wallMs = Math.round(performance.now() - started);
      await handle.close();
      const after = await statistics(observer);
      handle = openPostgres(database.url, { max: 10 });
      setDatabase(handle);
      return { dbMs: Math.round(after.activeMs - before.activeMs), wallMs, seqScans: after.seqScans - before.seqScans };
    };

    await sweep(); // the first sweep deploys the sweep contracts: not measured
    const figures: SweepFigures[] = [];
    for (const size of SIZES) {
      const grownIn = await growHistory(handle.db, { userId: user.id, apiKeyId: key.id, tokenId }, size);
      console.log(`    (grew payment_sessions to ${size.toLocaleString("en")} in ${(grownIn / 1000).toFixed(1)} s)`);
      const rounds = [];
      for (let r = 0; r < ROUNDS; r++) rounds.push(await sweep());
      figures.push({ sessions: size, rounds });
    }
    return figures;
  } finally {
    await handle.close();
    await observer.end();
    await anvil.stop();
    await database.drop();
  }
}

/** The engine's job steps, as the embedded runner takes them, until every deposit planned here is swept and confirmed. */
async function sweepUntilDone(db: Db): Promise<void> {
  const planned = new Set<number>();
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error("the sweep did not finish in 120 s");
    for (let i = 0; i < 10 && (await scanNetworkStep(db, "bsc")).behind > 0; i++);
    for (const f of await planForwardsStep(db)) planned.add(f.forwardId);
    for (const { forwardId } of await dueForwardsStep(db)) {
      planned.add(forwardId);
      await forwardStep(db, forwardId);
    }
    await tendLedgerStep(db);
    const rows =
      planned.size === 0
        ? []
        : await db
            .select({ status: forwards.status })
            .from(forwards)
            .where(inArray(forwards.id, [...planned]));
    if (rows.length >= SWEEP_PAYMENTS && rows.every((f) => f.status === "completed")) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The database's active time and the watched tables' sequential scans, once every other backend has exited (and so reported them). */
async function statistics(observer: postgres.Sql): Promise<{ activeMs: number; seqScans: number }> {
  for (let waited = 0; ; waited += 50) {
    const [others] =
      await observer`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`;
    if (others?.n === 0) break;
    if (waited > 30_000) throw new Error("the database's other backends did not exit");
    await new Promise((r) => setTimeout(r, 50));
  }
  await observer`select pg_stat_clear_snapshot()`;
  const [db] = await observer`select active_time as ms from pg_stat_database where datname = current_database()`;
  const [scans] =
    await observer`select coalesce(sum(seq_scan), 0)::int as n from pg_stat_user_tables where relname in ${observer(WATCHED)}`;
  return { activeMs: Number(db?.ms ?? 0), seqScans: Number(scans?.n ?? 0) };
}

/**
 * Sessions of the merchant, paid and forwarded a month ago, up to `target` in payment_sessions
 * (60 % with a deposit and a completed forward), in SQL; then VACUUM ANALYZE. Returns the ms it took.
 */
async function growHistory(db: Db, merchant: { userId: number; apiKeyId: number; tokenId: number }, target: number): Promise<number> {
  const started = performance.now();
  const [now] = rowsOf<{ have: number; base: string }>(
    await db.execute(sql`select count(*)::int as have, (coalesce(max(deposit_index), 0) + 100000000)::text as base from payment_sessions`),
  );
  const have = now?.have ?? 0;
  const base = Number(now?.base ?? 100_000_000);
  for (let from = 0; from < target - have; from += 100_000) {
    const to = Math.min(target - have, from + 100_000) - 1;
    await db.execute(sql`
      insert into payment_sessions (id, user_id, api_key_id, token_id, network, chain_id, deposit_index, deposit_address, deposit_topic,
                                    amount, received_amount, forward_to, status, expires_at, completed_at, created_at, tx_hash)
      select gen_random_uuid(), ${merchant.userId}, ${merchant.apiKeyId}, ${merchant.tokenId}, 'bsc', 56, ${base}::bigint + g,
             '0x' || lpad(to_hex(${base}::bigint + g), 40, 'b'), lpad(to_hex(${base}::bigint + g), 64, '0'), 1, case when g % 5 < 3 then 1 else 0 end,
             '0x976EA74026E726554dB657fA54763abd0C3a0aa9', case when g % 5 < 3 then 'completed' else 'expired' end,
             now() - interval '30 days', case when g % 5 < 3 then now() - interval '31 days' end, now() - interval '31 days',
             case when g % 5 < 3 then '0x' || lpad(to_hex(${base}::bigint + g), 64, 'c') end
      from generate_series(${from}::int, ${to}::int) g`);
    await db.execute(sql`
      insert into deposits (network, tx_hash, log_index, block_number, block_hash, block_timestamp, token_contract, from_address,
                            to_address, amount, session_id, needs_planning, created_at)
      select 'bsc', tx_hash, 0, 1, '0x' || lpad('1', 64, '0'), created_at, '0x' || lpad('e', 40, '0'),
             '0x976EA74026E726554dB657fA54763abd0C3a0aa9', deposit_address, 1, id, false, created_at
      from payment_sessions where deposit_index between ${base + from} and ${base + to} and tx_hash is not null`);
    await db.execute(sql`
      with moved as (
        insert into forwards (deposit_id, session_id, network, from_address, to_address, token_contract, amount, status, completed_at, created_at)
        select id, session_id, 'bsc', to_address, from_address, token_contract, amount, 'completed', block_timestamp, block_timestamp
        from deposits where block_number = 1 and forward_id is null
        returning id, deposit_id)
      update deposits d set forward_id = moved.id from moved where d.id = moved.deposit_id`);
  }
  await db.execute(sql`vacuum analyze payment_sessions`);
  await db.execute(sql`vacuum analyze deposits`);
  await db.execute(sql`vacuum analyze forwards`);
  return performance.now() - started;
}

export function printSweepDatabaseTime(figures: SweepFigures[]): void {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  console.log(
    `\n(f) a sweep's database time against the history: ${SWEEP_PAYMENTS} deposits scanned, planned, swept in one batch and confirmed`,
  );
  console.log("    (engine job steps on anvil at 0.45 s blocks; database time = pg_stat_database.active_time over the sweep,");
  console.log("     the ms PostgreSQL spent executing the engine's statements; median of the rounds)");
  for (const f of figures) {
    const db = f.rounds.map((r) => r.dbMs);
    console.log(
      `    ${f.sessions.toLocaleString("en").padStart(9)} sessions: database ${median(db)} ms (rounds ${db.join(", ")}), wall ${median(f.rounds.map((r) => r.wallMs))} ms, sequential scans of payment_sessions/deposits/forwards ${f.rounds.map((r) => r.seqScans).join(", ")}`,
    );
  }
  const [small, big] = figures;
  if (small && big) {
    const ratio = median(big.rounds.map((r) => r.dbMs)) / median(small.rounds.map((r) => r.dbMs));
    console.log(
      `    ratio ${big.sessions.toLocaleString("en")} / ${small.sessions.toLocaleString("en")}: ${ratio.toFixed(2)}× (goal ≤ 1.5×)`,
    );
  }
}
