/**
 * Every read of the dashboard's payments list, of each kind of search and of a payment's page is
 * served by an index: each statement they send is EXPLAINed on PostgreSQL with
 * sequential scans disabled, so a Seq Scan left in a plan is one no index can serve. The search
 * kinds must also use their own index, not walk the merchant's whole history. PostgreSQL only
 * (TEST_DATABASE_URL): PGlite runs the same search in dashboard-search.test.ts.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle, Db } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import * as schema from "@/lib/db/schema";
import { paymentRefunds } from "@/lib/domain/refunds/dashboard-refunds";
import { getUserPayment } from "@/lib/web/dashboard/payments/payment-detail";
import { deliveriesOfSession } from "@/lib/web/dashboard/payments/payment-webhooks";
import { listUserPayments, paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { deliveriesOfDomain } from "@/lib/web/dashboard/webhooks/summaries";
import { createTestDatabase } from "../helpers/database";
import { SEARCH, type SearchFixtures, seedSearchFixtures } from "../helpers/search-fixtures";

const url = process.env.TEST_DATABASE_URL;
/** Tables that grow with the history: none may be read by a sequential scan. */
const HISTORY_TABLES = ["payment_sessions", "deposits", "forwards", "refunds", "webhook_deliveries"];

describe.skipIf(!url)("index use on PostgreSQL", () => {
  let handle: DatabaseHandle & { url?: string };
  let explainer: postgres.Sql;
  let logged: Db;
  let f: SearchFixtures;
  const statements: { sql: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase();
    f = await seedSearchFixtures(handle.db, 20_000); // enough rows that walking them costs more than an index, as in a real history
    // Every paid payment has its deposit and its sweep, as in a real history.
    await handle.db.execute(sql`insert into deposits (network, tx_hash, log_index, block_number, block_hash, block_timestamp, token_contract,
        from_address, to_address, amount, session_id, needs_planning)
      select 'bsc', s.tx_hash, 0, 100, '0x00', s.created_at, '0x55d398326f99059fF775485246999027B3197955',
        '0x' || substr(md5('payer' || s.deposit_index), 1, 40), s.deposit_address, s.amount, s.id, false
      from payment_sessions s where s.tx_hash is not null and s.order_id like 'F-%'`);
    await handle.db.execute(sql`insert into forwards (deposit_id, session_id, network, from_address, to_address, token_contract, amount, status)
      select d.id, d.session_id, d.network, d.to_address, '0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199', d.token_contract, d.amount, 'completed'
      from deposits d`);
    await handle.db.execute(sql`analyze`);
    const dbUrl = handle.url!;
    logged = drizzle(postgres(dbUrl, { max: 1, onnotice: () => {} }), {
      schema,
      logger: { logQuery: (query, params) => statements.push({ sql: query, params }) },
    }) as unknown as Db;
    explainer = postgres(dbUrl, { max: 1, onnotice: () => {}, connection: { enable_seqscan: "off" } });
  });
  afterAll(async () => {
    await explainer?.end();
    await handle?.close();
  });

  /** The scans of every SELECT that `read` sends: "<index> on <table>", or "Seq Scan on <table>". */
  async function scansOf(read: () => Promise<unknown>): Promise<string[]> {
    statements.length = 0;
    await read();
    const scans: string[] = [];
    for (const s of statements.filter((st) => /^\s*select/i.test(st.sql))) {
      const plan = await explainer.unsafe(`explain ${s.sql}`, s.params as never[]);
      for (const row of plan) {
        const line = String(row["QUERY PLAN"]);
        if (process.env.SHOW_PLANS) console.log(line);
        const seq = /Seq Scan on (\S+)/.exec(line);
        const bitmap = /Bitmap Index Scan on (\S+)/.exec(line);
        const index = /Index (?:Only )?Scan(?: Backward)? using (\S+) on (\S+)/.exec(line);
        if (seq) scans.push(`Seq Scan on ${seq[1]}`);
        else if (bitmap) scans.push(`bitmap of ${bitmap[1]}`);
        else if (index) scans.push(`${index[1]} on ${index[2]}`);
      }
    }
    return scans;
  }
  const noHistoryScan = (scans: string[]) => scans.filter((s) => HISTORY_TABLES.some((t) => s === `Seq Scan on ${t}`));
  const search = (q: string) => () => listUserPayments(logged, f.a, paymentFiltersSchema.parse({ q }));

  it("serves each kind of search from its own index, scoped to the merchant", async () => {
    const cases: [string, string[]][] = [
      [f.paid, ["payment_sessions_pkey"]],
      [SEARCH.paidTx, ["payment_sessions_user_tx_hash_search_idx", "deposits_tx_hash_search_idx"]],
      [SEARCH.paidTx.slice(0, 12), ["payment_sessions_user_tx_hash_search_idx", "deposits_tx_hash_search_idx"]],
      [SEARCH.paidAddress, ["payment_sessions_user_deposit_address_search_idx", "deposits_from_address_search_idx"]],
      [SEARCH.paidAddress.slice(0, 12), ["payment_sessions_user_deposit_address_search_idx"]],
      ["ORD-10042", ["payment_sessions_user_order_search_idx", "payment_sessions_metadata_search_idx"]],
      ["ord-1", ["payment_sessions_user_order_search_idx"]],
      ["ada@example.com", ["payment_sessions_metadata_search_idx"]],
      ["customer:ada@example.com", ["payment_sessions_metadata_search_idx"]],
      ["42", ["payment_sessions_metadata_search_idx"]],
    ];
    for (const [q, indexes] of cases) {
      const scans = await scansOf(search(q));
      expect(noHistoryScan(scans), q).toEqual([]);
      for (const index of indexes) expect(scans.join("\n"), q).toContain(index);
    }
  });

  it("pages the list by cursor on (user_id, created_at, id), with no count", async () => {
    const first = await listUserPayments(logged, f.a, paymentFiltersSchema.parse({}));
    for (const query of [{}, { after: first.older }, { status: "completed", after: first.older }]) {
      statements.length = 0;
      const scans = await scansOf(() => listUserPayments(logged, f.a, paymentFiltersSchema.parse(query)));
      expect(noHistoryScan(scans)).toEqual([]);
      expect(scans.join("\n")).toContain("payment_sessions_user_created_id_idx on payment_sessions");
    }
    await scansOf(() => listUserPayments(logged, f.a, paymentFiltersSchema.parse({})));
    expect(statements.map((s) => s.sql).join("\n")).not.toMatch(/count\(/i);
  });

  it("reads a payment's page (timeline, sweeps, webhooks, refunds) through indexes only", async () => {
    const scans = await scansOf(async () => {
      const payment = await getUserPayment(logged, f.a, f.paid);
      await deliveriesOfSession(logged, f.a, { id: payment.sessionId, createdAt: new Date(payment.createdAt) });
      await paymentRefunds(logged, f.a, f.paid);
    });
    expect(noHistoryScan(scans)).toEqual([]);
    expect(scans.join("\n")).toContain("forwards_session_idx");
    expect(scans.join("\n")).toContain("deposits_session_idx on deposits");
  });

  it("pages a domain's webhook deliveries by cursor on (endpoint_id, created_at, id), with no count", async () => {
    const [domain] = rowsOf<{ id: number }>(
      await handle.db.execute(sql`insert into domains (user_id, origin, webhook_url)
      values (${f.a}, 'https://deliveries.test', 'https://deliveries.test/hook') returning id`),
    );
    const domainId = domain!.id;
    await handle.db.execute(sql`insert into webhook_endpoints (user_id, domain_id, url, secret)
      values (${f.a}, ${domainId}, 'https://deliveries.test/hook', 'whsec_x')`);
    await handle.db.execute(sql`insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, status, created_at)
      select e.id, 'evt_' || g, 'payment.completed', '{}', case when g % 50 = 0 then 'failed' else 'delivered' end,
        now() - g * interval '1 second'
      from webhook_endpoints e, generate_series(1, 20000) g where e.domain_id = ${domainId}`);
    await handle.db.execute(sql`analyze webhook_deliveries`);
    const first = await deliveriesOfDomain(logged, f.a, domainId, { limit: 10 });
    for (const query of [{}, { after: first.older! }, { before: first.older! }, { status: "failed" as const, after: first.older! }]) {
      const scans = await scansOf(() => deliveriesOfDomain(logged, f.a, domainId, { limit: 10, ...query }));
      expect(noHistoryScan(scans)).toEqual([]);
      expect(scans.join("\n")).toContain("webhook_deliveries_endpoint_created_id_idx on webhook_deliveries");
    }
    await scansOf(() => deliveriesOfDomain(logged, f.a, domainId, { limit: 10, after: first.older! }));
    expect(statements.map((s) => s.sql).join("\n")).not.toMatch(/count\(/i);
  });
});
