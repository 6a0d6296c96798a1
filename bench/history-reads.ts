/**
 * The API history and the overview at a big history (issue 34): one merchant grown to N sessions
 * in SQL (default 1,000,000; `tsx bench/history-reads.ts 200000` for less), another with 50, in
 * one database. Prints p50/p95 of each read for both and their ratio, and what the old reads
 * (count(*) over the key's sessions, an offset over the rows) cost at N for comparison.
 */
import { sql } from "drizzle-orm";
import { openPostgres } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { listPaymentHistory } from "@/lib/domain/payments/list-history";
import { paymentsByStatus, volumeByDay } from "@/lib/web/dashboard/overview";
import { createBenchDatabase } from "./database";

const BIG = Number(process.argv[2] ?? 1_000_000);
const SMALL = 50;
const RUNS = 30;

async function main() {
  const bench = await createBenchDatabase("history");
  const handle = openPostgres(bench.url, { max: 2 });
  const db = handle.db;
  try {
    await migrate(db);
    const q = (query: ReturnType<typeof sql>) => db.execute(query);
    for (const id of [1, 2]) {
      await q(sql`insert into users (id, email, password_hash) overriding system value values (${id}, ${`m${id}@example.com`}, 'x')`);
      await q(sql`insert into domains (id, user_id, origin) overriding system value values (${id}, ${id}, ${`https://shop${id}.example`})`);
      await q(sql`insert into tokens (id, user_id, network, contract_address, symbol, name, decimals) overriding system value
        values (${id}, ${id}, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18)`);
      await q(
        sql`insert into api_keys (id, user_id, name, prefix, key_hash) overriding system value values (${id}, ${id}, 'k', 'p', ${`h${id}`})`,
      );
    }
    const started = Date.now();
    for (const [user, count, from] of [
      [1, SMALL, 1],
      [2, BIG, 1_000],
    ] as const) {
      await q(sql`insert into payment_sessions (id, user_id, api_key_id, domain_id, token_id, network, chain_id, deposit_index, deposit_address,
          deposit_topic, amount, received_amount, forward_to, expires_at, status, completed_at, expired_at, created_at)
        select gen_random_uuid(), ${user}::int, ${user}::int, ${user}::int, ${user}::int, 'bsc', 56, i, 'addr-' || i, 'topic-' || i, 10,
          case when i % 10 < 6 then 10 else 0 end, 'to', now() - interval '1 day' + interval '1 hour',
          case when i % 10 < 6 then 'completed' else 'expired' end,
          case when i % 10 < 6 then now() - (i % 40) * interval '1 day' end,
          case when i % 10 >= 6 then now() - (i % 40) * interval '1 day' end,
          now() - interval '400 days' + i * interval '30 seconds'
        from generate_series(${from}::int, ${from + count - 1}::int) as i`);
    }
    // What migration 0026 does for rows written before it.
    await q(sql`insert into session_counts (user_id, api_key_id, status, slot, sessions)
      select user_id, api_key_id, status, 0, count(*) from payment_sessions group by 1, 2, 3`);
    await q(sql`insert into payment_day_totals (user_id, day, token_id, status, fiat_currency, sessions, received)
      select user_id, (coalesce(completed_at, expired_at) at time zone 'UTC')::date, token_id, status, null, count(*), sum(received_amount)
      from payment_sessions group by 1, 2, 3, 4`);
    await q(sql`vacuum analyze`);
    console.log(`grew ${BIG.toLocaleString()} + ${SMALL} sessions in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const deepCursor = async (key: number, total: number) => {
      const [row] = rowsOf<{ created_at: string; id: string }>(
        await q(sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, id::text from payment_sessions
          where api_key_id = ${key} order by created_at desc, id desc offset ${total - 21} limit 1`),
      );
      return Buffer.from(`${row?.created_at}|${row?.id}`).toString("base64url");
    };
    const reads = async (key: number, total: number) => {
      const cursor = await deepCursor(key, total);
      const lastPage = Math.ceil(total / 20);
      return {
        "history, first page": () => listPaymentHistory(db, key, { page: 1, limit: 20 }),
        "history, middle page (the worst)": () => listPaymentHistory(db, key, { page: Math.ceil(lastPage / 2), limit: 20 }),
        "history, deepest page": () => listPaymentHistory(db, key, { page: lastPage, limit: 20 }),
        "history, deep page, status=completed": () =>
          listPaymentHistory(db, key, { page: Math.ceil((total * 0.6) / 20), limit: 20, status: "completed" }),
        "history by cursor, deepest": () => listPaymentHistory(db, key, { page: 1, limit: 20, cursor }),
        "overview (volume 30 d + by status)": () => Promise.all([volumeByDay(db, key, 30), paymentsByStatus(db, key)]),
        "before: count(*) of the key": () => q(sql`select count(*) from payment_sessions where api_key_id = ${key}`),
        "before: deepest page by rows": () =>
          q(
            sql`select * from payment_sessions where api_key_id = ${key} order by created_at desc, id desc limit 20 offset ${(lastPage - 1) * 20}`,
          ),
      };
    };
    const small = await reads(1, SMALL);
    const big = await reads(2, BIG);
    console.log(`${"read".padEnd(40)} ${"50: p50/p95 ms".padStart(16)} ${`${BIG}: p50/p95 ms`.padStart(22)} ${"p95 ratio".padStart(10)}`);
    for (const name of Object.keys(small) as (keyof typeof small)[]) {
      const a = await timings(small[name]);
      const b = await timings(big[name]);
      console.log(
        `${name.padEnd(40)} ${`${a.p50.toFixed(1)}/${a.p95.toFixed(1)}`.padStart(16)} ${`${b.p50.toFixed(1)}/${b.p95.toFixed(1)}`.padStart(22)} ${(b.p95 / a.p95).toFixed(2).padStart(10)}`,
      );
    }
  } finally {
    await handle.close();
    await bench.drop();
  }
}

async function timings(run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(RUNS * 0.5)] ?? 0, p95: ms[Math.floor(RUNS * 0.95)] ?? 0 };
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
