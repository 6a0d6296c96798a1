import postgres from "postgres";
import { signInDashboard } from "./dashboard-session";
import { type GrowTarget, growHistory, settle } from "./history-data";
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
  samples: { id: string; orderId: string; invoice: string; txHash: string; address: string }[];
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
      log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const samples = await sql<Shop["samples"]>`
        select id, order_id as "orderId", metadata->>'invoice' as invoice, tx_hash as "txHash", deposit_address as address
        from payment_sessions tablesample bernoulli (${Math.min(100, (3000 / size) * 100)})
        where user_id = ${row.userId} and status = 'completed' limit 40`;
      const cookie = await signInDashboard(server.url, merchant.email, merchant.password);
      shops.push({
        label: size === SMALL ? "small" : "big",
        apiKey: merchant.apiKey,
        tokenId: merchant.tokenId,
        cookie,
        samples: [...samples],
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
  const { from, to } = lastMonth();
  return [
    { name: "dashboard search: order id", rule: "ratio", run: dashboard((i) => search(sample(i).orderId)) },
    { name: "dashboard search: metadata value", rule: "ratio", run: dashboard((i) => search(sample(i).invoice)) },
    { name: "dashboard search: tx hash", rule: "ratio", run: dashboard((i) => search(sample(i).txHash)) },
    { name: "dashboard search: deposit address", rule: "ratio", run: dashboard((i) => search(sample(i).address)) },
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
        const first = await api(() => "/api/v1/payment/history?limit=20")(0);
        const body = (await first.json()) as { data?: { nextCursor?: string | null; meta?: { nextCursor?: string | null } } };
        const cursor = body.data?.nextCursor ?? body.data?.meta?.nextCursor;
        if (!cursor) throw new Error("no nextCursor on the first page (no cursor pagination in this build)");
        return api(() => `/api/v1/payment/history?limit=20&cursor=${encodeURIComponent(cursor)}`);
      },
    },
    {
      name: "GET /api/v1/payment/history?orderId (exact)",
      rule: "ratio",
      run: api((i) => `/api/v1/payment/history?orderId=${sample(i).orderId}`),
    },
    { name: "dashboard overview", rule: "ratio", run: dashboard(() => "/dashboard") },
    { name: "dashboard payments list", rule: "ratio", run: dashboard(() => "/dashboard/payments") },
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
