import postgres from "postgres";
import { encodeCursor } from "@/lib/base/cursor";
import { signInDashboard } from "./dashboard-session";
import { type GrowTarget, growHistory, refillCounters, settle } from "./history-data";
import { type Call, type Measured, measureCall, printTable } from "./history-report";
import { benchMerchant } from "./merchant";
import { startBenchServer } from "./server";
import { deployBenchToken } from "./token";

/**
 * `npm run bench:history [-- --sessions N]`: does a merchant's every read cost the same with a big
 * history as with a small one? One merchant grown in SQL to N sessions (default 1,000,000: 600k
 * deposits and forwards), another with 50, in a database of their own; `next start` on it, with
 * no job runner (the engine's reads are bench:engine's). Then each call over HTTP, signed in as
 * the dashboard is, p50/p95 small vs big, with the issue's acceptance per line:
 * ≤ max(2 × small p95, 100 ms); the API's deepest page ≤ 300 ms; a month of CSV (72k rows at 1M)
 * ≤ 2 s to the last byte, its first byte < 1 s.
 */
const SMALL = 50;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

interface Shop {
  label: string;
  apiKey: string;
  tokenId: number;
  cookie: string;
  samples: { id: string; orderId: string; invoice: string; customer: string; txHash: string; address: string; payer: string }[];
  /** The cursor of the page 20 rows before the oldest: a deep cursor page. */
  deepCursor: string;
}

async function main() {
  const sessions = option("sessions", 1_000_000);
  const budgetMs = option("budget-ms", 20_000);
  const log = (line: string) => console.log(line);
  // Jobs off: an idle engine would otherwise scan, expire and reconcile beside the measured reads.
  const server = await startBenchServer({ JOBS: "inngest", INNGEST_DEV: "1" });
  const sql = postgres(server.databaseUrl, { max: 2, onnotice: () => {} });
  try {
    const token = await deployBenchToken(server.anvil.url);
    const shops: Shop[] = [];
    for (const [salt, size] of [
      [2, SMALL],
      [1, sessions],
    ] as const) {
      const merchant = await benchMerchant(server.url, server.databaseUrl, token);
      const [row] = await sql<{ userId: number; apiKeyId: number; forwardTo: string }[]>`
        select t.user_id as "userId", (select max(k.id) from api_keys k where k.user_id = t.user_id) as "apiKeyId",
          (select d.withdrawal_address from domains d where d.id = ${merchant.domainId}) as "forwardTo"
        from tokens t where t.id = ${merchant.tokenId}`;
      if (!row) throw new Error("bench merchant not found");
      const target: GrowTarget = { ...row, tokenId: merchant.tokenId, domainId: merchant.domainId, tokenContract: token, salt };
      target.forwardTo ??= "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199";
      log(`growing ${size.toLocaleString("en")} sessions for merchant ${row.userId}…`);
      const started = Date.now();
      await growHistory(sql, target, size, log);
      await refillCounters(sql, row.userId);
      log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await checkTotal(server.url, merchant.apiKey, size);
      const samples = await sql<Shop["samples"]>`
        select s.id, s.order_id as "orderId", s.metadata->>'invoice' as invoice, s.metadata->>'customer' as customer,
          s.tx_hash as "txHash", s.deposit_address as address, d.from_address as payer
        from payment_sessions s tablesample bernoulli (${Math.min(100, (3000 / size) * 100)})
        join deposits d on d.session_id = s.id
        where s.user_id = ${row.userId} and s.status = 'completed' limit 40`;
      const [deep] = await sql<{ createdAt: string; id: string }[]>`
        select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "createdAt", id::text as id
        from payment_sessions where api_key_id = ${row.apiKeyId} order by created_at, id offset 20 limit 1`;
      if (!deep) throw new Error("no deep session to start a cursor page at");
      const cookie = await signInDashboard(server.url, merchant.email, merchant.password);
      shops.push({
        label: size === SMALL ? "small" : "big",
        apiKey: merchant.apiKey,
        tokenId: merchant.tokenId,
        cookie,
        samples: [...samples],
        deepCursor: encodeCursor(deep),
      });
    }
    log("vacuum analyze…");
    await settle(sql);
    const [size] = await sql<{ size: string }[]>`select pg_size_pretty(pg_database_size(current_database())) as size`;
    log(`database: ${size?.size}`);
    const results = new Map<string, Measured[]>();
    // Each call small then big, side by side: the machine's drift (other work, a warming JIT) hits both alike.
    const calls = shops.map((shop) => callsFor(server.url, shop));
    for (let c = 0; c < (calls[0]?.length ?? 0); c++) {
      for (const [s, shop] of shops.entries()) {
        const call = calls[s]?.[c];
        if (!call) continue;
        const measured = await measureCall(call, budgetMs);
        const figures = `p50 ${measured.p50.toFixed(0).padStart(6)} ms  p95 ${measured.p95.toFixed(0).padStart(6)} ms`;
        log(`  ${shop.label.padEnd(5)} ${call.name.padEnd(46)} ${figures}${measured.note ? `  ${measured.note}` : ""}`);
        results.set(call.name, [...(results.get(call.name) ?? []), measured]);
      }
    }
    printTable(results, SMALL, sessions);
  } finally {
    await sql.end();
    await server.stop();
  }
}

/**
 * The API's meta.total (and the deep pages counted from the oldest end by it) comes from the
 * counters: at anything but the grown count every later figure would measure a wrong history.
 */
async function checkTotal(url: string, apiKey: string, grown: number): Promise<void> {
  const res = await fetch(`${url}/api/v1/payment/history?limit=1`, { headers: { "x-api-key": apiKey } });
  const body = (await res.json()) as { data?: { meta?: { total?: number } } };
  const total = body.data?.meta?.total;
  if (total !== grown) throw new Error(`sanity check: the API history's meta.total is ${total}, not the ${grown} sessions grown`);
  console.log(`  sanity: the API history's meta.total is ${total.toLocaleString("en")}`);
}

/** Distinct payments a dashboard list page links to (its rows). */
function paymentLinks(html: string): Set<string> {
  return new Set(html.match(/\/dashboard\/payments\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []);
}

/** The month the issue exports: 30 UTC days up to today, ~72,000 sessions of the big merchant. */
function lastMonth(): { from: string; to: string } {
  const today = new Date();
  const from = new Date(today.getTime() - 29 * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
}

function callsFor(url: string, shop: Shop): Call[] {
  const sample = (i: number) => {
    const s = shop.samples[i % shop.samples.length];
    if (!s) throw new Error(`no completed session sampled for the ${shop.label} merchant`);
    return s;
  };
  const dashboard = (path: (i: number) => string) => (i: number) =>
    fetch(`${url}${path(i)}`, { redirect: "manual", headers: { cookie: shop.cookie } });
  const api =
    (path: (i: number) => string, init: RequestInit = {}) =>
    (i: number) =>
      fetch(`${url}${path(i)}`, { ...init, headers: { "x-api-key": shop.apiKey, "content-type": "application/json", ...init.headers } });
  const search = (q: string) => `/dashboard/payments?q=${encodeURIComponent(q)}`;
  /** A search, checked once to list at least one payment (an input of the kind that finds nothing would time an empty page). */
  const searchCall = (name: string, q: (s: Shop["samples"][number]) => string): Call => ({
    name: `dashboard search: ${name}`,
    rule: "ratio",
    setup: async () => {
      const run = dashboard((i) => search(q(sample(i))));
      const html = await (await run(0)).text();
      if (paymentLinks(html).size === 0) throw new Error(`search ${JSON.stringify(q(sample(0)))} found no payment`);
      return run;
    },
  });
  const { from, to } = lastMonth();
  const cursorPage = async (cursor: string) => {
    const res = await api(() => `/api/v1/payment/history?limit=20&cursor=${encodeURIComponent(cursor)}`)(0);
    const body = (await res.json()) as { data?: { items?: unknown[]; nextCursor?: string | null } };
    if (!body.data?.items?.length) throw new Error(`cursor page ${JSON.stringify(cursor)} is empty (HTTP ${res.status})`);
    return body.data;
  };
  return [
    searchCall("order id (exact)", (s) => s.orderId),
    searchCall("order id prefix", (s) => s.orderId.slice(0, -2)),
    searchCall("metadata key:value", (s) => `invoice:${s.invoice}`),
    searchCall("metadata value", (s) => s.customer),
    searchCall("tx hash", (s) => s.txHash),
    searchCall("deposit address", (s) => s.address),
    searchCall("payer address", (s) => s.payer),
    { name: "GET /api/v1/payment/history first page", rule: "ratio", run: api(() => "/api/v1/payment/history?limit=20") },
    {
      name: "GET /api/v1/payment/history deepest page",
      rule: "deep",
      setup: async () => {
        const first = await api(() => "/api/v1/payment/history?limit=100")(0);
        const body = (await first.json()) as { data?: { meta?: { pages?: number } } };
        const pages = body.data?.meta?.pages ?? 1;
        return api(() => `/api/v1/payment/history?limit=100&page=${pages}`);
      },
    },
    {
      name: "GET /api/v1/payment/history by cursor",
      rule: "ratio",
      setup: async () => {
        // nextCursor comes only with `cursor`: an empty one is the newest page.
        const cursor = (await cursorPage("")).nextCursor;
        if (!cursor) throw new Error("no nextCursor on the first cursor page");
        return api(() => `/api/v1/payment/history?limit=20&cursor=${encodeURIComponent(cursor)}`);
      },
    },
    {
      name: "GET /api/v1/payment/history by cursor, deepest",
      rule: "deep",
      setup: async () => {
        await cursorPage(shop.deepCursor);
        return api(() => `/api/v1/payment/history?limit=20&cursor=${encodeURIComponent(shop.deepCursor)}`);
      },
    },
    {
      name: "GET /api/v1/payment/history?orderId (exact)",
      rule: "ratio",
      run: api((i) => `/api/v1/payment/history?orderId=${sample(i).orderId}`),
    },
    { name: "dashboard overview", rule: "ratio", run: dashboard(() => "/dashboard") },
    { name: "dashboard payments list", rule: "ratio", run: dashboard(() => "/dashboard/payments") },
    {
      name: "dashboard payments list, second page (after)",
      rule: "ratio",
      setup: async () => {
        const html = await (await dashboard(() => "/dashboard/payments")(0)).text();
        const href = html.match(/href="(\/dashboard\/payments\?[^"]*\bafter=[^"]*)"/)?.[1]?.replaceAll("&amp;", "&");
        if (!href) throw new Error("no Older (after) link on the payments list");
        const run = dashboard(() => href);
        if (paymentLinks(await (await run(0)).text()).size === 0) throw new Error(`${href} lists no payment`);
        return run;
      },
    },
    { name: "dashboard payment page", rule: "ratio", run: dashboard((i) => `/dashboard/payments/${sample(i).id}`) },
    { name: "GET /api/v1/payment/:id/status", rule: "ratio", run: api((i) => `/api/v1/payment/${sample(i).id}/status`) },
    {
      name: "POST /api/v1/payment/create",
      rule: "ratio",
      run: api(() => "/api/v1/payment/create", {
        method: "POST",
        body: JSON.stringify({ tokenId: shop.tokenId, amount: "10.5" }),
      }),
    },
    {
      name: `CSV export, one month (${from}..${to})`,
      rule: "csv",
      run: dashboard(() => `/dashboard/payments/export?from=${from}&to=${to}`),
    },
  ];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
