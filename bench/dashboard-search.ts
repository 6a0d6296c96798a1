/**
 * `npm run bench:dashboard-search`: the dashboard's payments list and each kind of search with one
 * merchant grown to BENCH_SESSIONS payments (default 1,000,000; 60% paid, each with a deposit and a
 * forward), p50/p95 over BENCH_RUNS calls of `listUserPayments`, and the scans each plan uses.
 *
 * A fresh database on BENCH_DATABASE_URL's server is filled in SQL (~10 min for 1M on 2 cores) and
 * dropped afterwards; SEARCH_BENCH_URL instead reuses a database this script filled before (kept).
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import * as schema from "@/lib/db/schema";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { createBenchDatabase } from "./database";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

async function fill(db: ReturnType<typeof openPostgres>["db"], n: number) {
  await db.execute(sql`insert into users (email, password_hash) values ('big@bench.test', 'x'), ('small@bench.test', 'x')`);
  await db.execute(sql`insert into tokens (user_id, network, contract_address, symbol, name, decimals)
    select id, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18 from users`);
  // The big merchant's n payments over a year, a small one's 20,000 beside them.
  await db.execute(sql`insert into payment_sessions (id, user_id, token_id, network, chain_id, deposit_index, deposit_address,
      deposit_topic, amount, forward_to, status, tx_hash, metadata, order_id, description, created_at, expires_at)
    select gen_random_uuid(), u.id, t.id, 'bsc', 56, g + case when u.email = 'big@bench.test' then 0 else 100000000 end,
      '0x' || substr(md5('a' || g || u.id), 1, 20) || upper(substr(md5('b' || g || u.id), 1, 20)),
      lpad(substr(md5('a' || g || u.id), 1, 20) || substr(md5('b' || g || u.id), 1, 20), 64, '0'),
      (g % 1000 + 1)::numeric * 1000000000000000000, '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199',
      case when g % 10 < 6 then 'completed' when g % 10 < 9 then 'expired' else 'cancelled' end,
      case when g % 10 < 6 then '0x' || md5('tx' || g || u.id) || md5('ty' || g || u.id) end,
      jsonb_build_object('customer', 'cust-' || (g % 50000), 'plan', case when g % 3 = 0 then 'gold' else 'basic' end,
        'cart', jsonb_build_object('sku', 'SKU-' || (g % 5000), 'qty', g % 7)),
      'ORD-' || g, 'Order number ' || g,
      now() - interval '365 days' + (g::float / m.n) * interval '365 days',
      now() - interval '365 days' + (g::float / m.n) * interval '365 days' + interval '30 minutes'
    from users u join tokens t on t.user_id = u.id
      cross join lateral (select case when u.email = 'big@bench.test' then ${n} else 20000 end as n) m,
      lateral generate_series(1, m.n) g`);
  await db.execute(sql`insert into deposits (network, tx_hash, log_index, block_number, block_hash, block_timestamp, token_contract,
      from_address, to_address, amount, session_id, needs_planning)
    select 'bsc', s.tx_hash, 0, 1000, '0x00', s.created_at, '0x55d398326f99059fF775485246999027B3197955',
      '0x' || substr(md5('payer' || (s.deposit_index % 200000)) || md5('p' || (s.deposit_index % 200000)), 1, 40), s.deposit_address, s.amount, s.id, false
    from payment_sessions s where s.tx_hash is not null`);
  await db.execute(sql`insert into forwards (deposit_id, session_id, network, from_address, to_address, token_contract, amount, status)
    select d.id, d.session_id, d.network, d.to_address, '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', d.token_contract, d.amount, 'completed'
    from deposits d`);
  await db.execute(sql`analyze`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function main() {
  const reuse = process.env.SEARCH_BENCH_URL;
  const fresh = reuse ? null : await createBenchDatabase("search");
  const url = reuse ?? (fresh as { url: string }).url;
  const handle = openPostgres(url, { max: 4 });
  try {
    await migrate(handle.db);
    const [existing] = rowsOf<{ id: number }>(
      await handle.db.execute(sql`select id from users where email in ('big@bench.test', 'big@example.com')`),
    );
    if (!existing) {
      const started = performance.now();
      await fill(handle.db, SESSIONS);
      console.log(`filled ${SESSIONS.toLocaleString()} sessions in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    const [big] = rowsOf<{ id: number; n: string }>(
      await handle.db.execute(sql`select u.id, (select count(*) from payment_sessions s where s.user_id = u.id) as n
        from users u where email in ('big@bench.test', 'big@example.com')`),
    );
    if (!big) throw new Error("no bench merchant");
    const userId = big.id;
    const [mid] = rowsOf<{ id: string; order_id: string; tx_hash: string; deposit_address: string; payer: string }>(
      await handle.db.execute(sql`select s.id, s.order_id, s.tx_hash, s.deposit_address, d.from_address as payer
        from payment_sessions s join deposits d on d.session_id = s.id
        where s.user_id = ${userId} and s.order_id = 'ORD-' || (${Number(big.n)} / 2)::int`),
    );
    if (!mid) throw new Error("no middle session");
    const first = await listUserPayments(handle.db, userId, paymentFiltersSchema.parse({}));
    const cases: [string, Record<string, string>][] = [
      ["list, newest page", {}],
      ["list, second page (cursor)", { after: first.older ?? "" }],
      ["list, completed only", { status: "completed" }],
      ["payment id", { q: mid.id }],
      ["order id, exact", { q: mid.order_id }],
      ["order id, prefix (a few)", { q: mid.order_id.slice(0, -1) }],
      ["order id, prefix (100k+)", { q: "ord-1" }],
      ["transaction hash", { q: mid.tx_hash.toUpperCase().replace("0X", "0x") }],
      ["transaction hash, prefix", { q: mid.tx_hash.slice(0, 12) }],
      ["deposit address", { q: mid.deposit_address.toLowerCase() }],
      ["deposit address, prefix", { q: mid.deposit_address.slice(0, 10) }],
      ["payer address", { q: mid.payer }],
      ["metadata value (20 rows)", { q: "cust-123" }],
      ["metadata key:value (20 rows)", { q: "customer:cust-123" }],
      ["metadata nested value (200 rows)", { q: "SKU-42" }],
      ["metadata value (1/3 of rows)", { q: "gold" }],
      ["nothing matches", { q: "no-such-thing" }],
    ];
    // The statements each call sends, to EXPLAIN them.
    const statements: { sql: string; params: unknown[] }[] = [];
    const client = postgres(url, { max: 1, onnotice: () => {} });
    const logged = drizzle(client, {
      schema,
      logger: { logQuery: (query, params) => statements.push({ sql: query, params }) },
    }) as unknown as typeof handle.db;
    console.log(`${Number(big.n).toLocaleString()} sessions of one merchant; ${RUNS} calls each (ms)`);
    console.log(`${"call".padEnd(36)} ${"p50".padStart(7)} ${"p95".padStart(7)}  rows  scans`);
    for (const [name, input] of cases) {
      const filters = paymentFiltersSchema.parse({ limit: "25", ...input });
      const times: number[] = [];
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        rows = (await listUserPayments(handle.db, userId, filters)).items.length;
        times.push(performance.now() - started);
      }
      times.sort((x, y) => x - y);
      statements.length = 0;
      await listUserPayments(logged, userId, filters);
      const scans = new Set<string>();
      for (const s of statements.filter((st) => /^select/i.test(st.sql) && st.sql.includes('from "payment_sessions"'))) {
        const plan = await client.unsafe(`explain ${s.sql}`, s.params as never[]);
        for (const line of plan.map((r) => String(r["QUERY PLAN"]))) {
          const scan = /(Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan)( Backward)?( using (\S+))? on (\S+)/.exec(line);
          if (scan) scans.add(`${scan[1] === "Seq Scan" ? "SEQ SCAN" : scan[4]} (${scan[5]})`);
        }
      }
      console.log(
        `${name.padEnd(36)} ${percentile(times, 50).toFixed(1).padStart(7)} ${percentile(times, 95).toFixed(1).padStart(7)}  ${String(rows).padStart(4)}  ${[...scans].join(", ")}`,
      );
    }
    await client.end();
  } finally {
    await handle.close();
    await fresh?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
