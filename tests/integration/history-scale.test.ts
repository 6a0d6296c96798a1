import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offsetPlan } from "@/lib/base/pagination";
import type { DatabaseHandle } from "@/lib/db/client";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { rowsOf } from "@/lib/db/rows";
import { paymentSessions } from "@/lib/db/schema";
import { historyRows, pageIdsQuery } from "@/lib/domain/payments/list-history";
import { sessionCountsOfUser, sessionTotal } from "@/lib/domain/payments/session-tallies";
import { createTestDatabase } from "../helpers/database";

/**
 * Migration 0026 starts the counters and day totals from the history already there; and the
 * history's reads stay index reads at any depth: a deep `page` finds its ids by an index-only scan,
 * a cursor page starts at its index bound, and the total reads the counters, not the sessions.
 */
const BEFORE = readMigrations().filter((m) => m.tag < "0026");
const onPostgres = process.env.TEST_DATABASE_URL !== undefined;
let handle: DatabaseHandle;
const q = (query: ReturnType<typeof sql>) => handle.db.execute(query);

/** `count` sessions of key `key` (user `user`), created one second apart from `from`, statuses in turn. */
async function grow(user: number, key: number | null, count: number, from: number) {
  await q(sql`insert into payment_sessions (id, user_id, api_key_id, domain_id, token_id, network, chain_id, deposit_index, deposit_address,
      deposit_topic, amount, received_amount, forward_to, expires_at, status, completed_at, expired_at, cancelled_at, created_at)
    select gen_random_uuid(), ${user}::int, ${key}::int, ${user}::int, ${user}::int, 'bsc', 56, i, 'addr-' || i, 'topic-' || i, 10,
      case i % 4 when 1 then 10 + i % 3 when 2 then 3 else 0 end, 'to',
      now() + interval '1 hour',
      (array['pending', 'completed', 'expired', 'cancelled'])[i % 4 + 1],
      case when i % 4 = 1 then timestamptz '2026-03-01' + (i % 5) * interval '1 day' + interval '23 hours' end,
      case when i % 4 = 2 then timestamptz '2026-03-02' end,
      case when i % 4 = 3 then timestamptz '2026-03-03' end,
      timestamptz '2026-01-01' + i * interval '1 second'
    from generate_series(${from}::int, ${from + count - 1}::int) as i`);
}

async function directCounts(where: ReturnType<typeof sql>) {
  return rowsOf<{ status: string; n: string }>(
    await q(sql`select status, count(*)::text as n from payment_sessions where ${where} group by status`),
  ).reduce<Record<string, number>>((all, r) => Object.assign(all, { [r.status]: Number(r.n) }), {});
}

async function planOf(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql: text, params } = query.toSQL();
  // The parameters inlined as literals: EXPLAIN plans the statement as the driver sends it, values included.
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    return typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
  });
  const rows = rowsOf<{ "QUERY PLAN": string }>(await handle.db.execute(sql.raw(`explain ${inlined}`)));
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

beforeAll(async () => {
  handle = await createTestDatabase(BEFORE);
  for (const id of [1, 2]) {
    await q(sql`insert into users (id, email, password_hash) overriding system value values (${id}, ${`m${id}@example.com`}, 'x')`);
    await q(sql`insert into domains (id, user_id, origin) overriding system value values (${id}, ${id}, ${`https://shop${id}.example`})`);
    await q(sql`insert into tokens (id, user_id, network, contract_address, symbol, name, decimals) overriding system value
      values (${id}, ${id}, 'bsc', '0x55d398326f99059fF775485246999027B3197955', 'USDT', 'Tether', 18)`);
    await q(
      sql`insert into api_keys (id, user_id, name, prefix, key_hash) overriding system value values (${id}, ${id}, 'k', 'p', ${`h${id}`})`,
    );
  }
  await grow(1, 1, 403, 1);
  await grow(1, null, 57, 1_000);
  await grow(2, 2, 120, 2_000);
  await migrate(handle.db);
});

afterAll(async () => {
  await handle?.close();
});

describe("migration 0026 (history counters)", () => {
  it("counts the sessions already there, per key, per user and per status", async () => {
    for (const key of [1, 2]) {
      const direct = await directCounts(sql`api_key_id = ${key}`);
      expect(await sessionTotal(handle.db, { apiKeyId: key })).toBe(Object.values(direct).reduce((a, b) => a + b, 0));
      for (const [status, n] of Object.entries(direct)) expect(await sessionTotal(handle.db, { apiKeyId: key }, status as never)).toBe(n);
    }
    expect(await sessionCountsOfUser(handle.db, 1)).toEqual({
      pending: 0,
      completed: 0,
      expired: 0,
      cancelled: 0,
      ...(await directCounts(sql`user_id = 1`)),
    });
  });

  it("adds the terminal sessions already there to the day totals of the day they reached their status", async () => {
    const direct = rowsOf<{ user_id: number; day: string; status: string; n: string; received: string }>(
      await q(sql`select user_id, to_char(coalesce(completed_at, expired_at, cancelled_at) at time zone 'UTC', 'YYYY-MM-DD') as day, status,
        count(*)::text as n, sum(received_amount)::text as received
        from payment_sessions where status <> 'pending' group by 1, 2, 3 order by 1, 2, 3`),
    );
    const totals = rowsOf<{ user_id: number; day: string; status: string; n: string; received: string }>(
      await q(sql`select user_id, to_char(day, 'YYYY-MM-DD') as day, status, sessions::text as n, received::text as received
        from payment_day_totals order by 1, 2, 3`),
    );
    expect(totals).toEqual(direct);
    expect(direct.length).toBeGreaterThan(5);
  });
});

describe.runIf(onPostgres)("the history's plans on PostgreSQL", () => {
  beforeAll(async () => {
    await grow(1, 1, 30_000, 10_000);
    await grow(2, 2, 30_000, 50_000);
    await q(sql`vacuum analyze payment_sessions`);
  });

  it("finds a deep page's ids by an index-only scan, with or without a status", async () => {
    const key = eq(paymentSessions.apiKeyId, 1);
    // Counted directly: the rows grown here bypass the writers, so the counters do not know them.
    const count = async (where: ReturnType<typeof sql>) =>
      rowsOf<{ n: number }>(await q(sql`select count(*)::int as n from payment_sessions where api_key_id = 1 and ${where}`))[0]?.n ?? 0;
    const total = await count(sql`true`);
    const middle = await planOf(pageIdsQuery(handle.db, key, offsetPlan({ page: Math.floor(total / 40), limit: 20 }, total)));
    expect(middle).toMatch(/Index Only Scan Backward using payment_sessions_key_created_id_idx on payment_sessions/);
    expect(middle).not.toMatch(/Seq Scan|Sort/);
    // Past the middle, from the oldest end: the deepest page reads no more of the index than the first.
    const deepest = await planOf(pageIdsQuery(handle.db, key, offsetPlan({ page: Math.ceil(total / 20), limit: 20 }, total)));
    expect(deepest).toMatch(/Index Only Scan using payment_sessions_key_created_id_idx on payment_sessions/);
    expect(deepest).not.toMatch(/Seq Scan|Sort/);
    const completed = await count(sql`status = 'completed'`);
    const byStatus = await planOf(
      pageIdsQuery(
        handle.db,
        and(key, eq(paymentSessions.status, "completed")),
        offsetPlan({ page: Math.floor(completed / 80), limit: 20 }, completed),
      ),
    );
    expect(byStatus).toMatch(/Index Only Scan Backward using payment_sessions_key_status_created_id_idx on payment_sessions/);
    expect(byStatus).not.toMatch(/Seq Scan|Sort/);
  });

  it("starts a cursor page at its index bound", async () => {
    const after = { createdAt: "2026-01-01T05:00:00.000000Z", id: "00000000-0000-4000-8000-000000000000" };
    const { keysetAfter } = await import("@/lib/db/keyset");
    const plan = await planOf(
      historyRows(handle.db, and(eq(paymentSessions.apiKeyId, 1), keysetAfter(paymentSessions.createdAt, paymentSessions.id, after)), 21),
    );
    expect(plan).toMatch(
      /Index Scan Backward using payment_sessions_key_created_id_idx on payment_sessions[\s\S]*Index Cond: \(\(api_key_id = 1\) AND \(ROW\(created_at, id\) < ROW/,
    );
    expect(plan).not.toMatch(/Seq Scan on payment_sessions|Sort/);
  });

  it("expires the key's due sessions before listing through the key's pending ones only", async () => {
    const plan = rowsOf<{ "QUERY PLAN": string }>(
      await q(sql`explain select * from payment_sessions where status = 'pending' and expires_at <= now() and api_key_id = 1
        order by id limit 500 for no key update`),
    )
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    // Either partial index of pending sessions by expiry (the planner picks by how many are due): never the history.
    expect(plan).toMatch(/Index Scan using payment_sessions_(key_)?pending_expiry_idx on payment_sessions/);
    expect(plan).not.toMatch(/Seq Scan/);
  });

  it("reads the total from the counters, not the sessions", async () => {
    const total = handle.db
      .select({ n: sql`sum(sessions)` })
      .from(sql`session_counts`)
      .where(sql`api_key_id = ${1} and status = ${"completed"}`);
    const plan = await planOf(total);
    expect(plan).not.toMatch(/payment_sessions/);
    expect(await sessionTotal(handle.db, { apiKeyId: 1 })).toBe(403);
  });
});
