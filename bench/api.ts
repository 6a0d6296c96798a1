import autocannon from "autocannon";
import { benchMerchant } from "./merchant";
import { startBenchServer } from "./server";
import { deployBenchToken } from "./token";

/**
 * `npm run bench:api`: payment/create and status against `next start` on PostgreSQL, autocannon
 * with 50 connections, beside a bare JSON route measured in the same run. The ratios are the
 * figures (absolute numbers move with the machine). Goals: create ≥ 0.5 × ping, status ≥ 0.8 × ping.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

async function run(title: string, options: autocannon.Options) {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const failed = result.non2xx + result.errors + result.timeouts;
  return { title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed, total: result.requests.total };
}

async function main() {
  const server = await startBenchServer();
  try {
    const token = await deployBenchToken(server.anvil.url);
    const merchant = await benchMerchant(server.url, server.databaseUrl, token);
    const headers = { "content-type": "application/json", "x-api-key": merchant.apiKey };
    const created = await fetch(`${server.url}/api/v1/payment/create`, {
      method: "POST",
      headers,
      body: JSON.stringify({ tokenId: merchant.tokenId, amount: "10" }),
    }).then((r) => r.json() as Promise<{ data: { sessionId: string } }>);

    const routes = {
      ping: { title: "GET /api/ping (bare JSON)", url: `${server.url}/api/ping` },
      create: {
        title: "POST /api/v1/payment/create",
        url: `${server.url}/api/v1/payment/create`,
        method: "POST" as const,
        headers,
        body: JSON.stringify({ tokenId: merchant.tokenId, amount: "10.5" }),
      },
      status: {
        title: "GET /api/v1/payment/:id/status",
        url: `${server.url}/api/v1/payment/${created.data.sessionId}/status`,
        headers: { "x-api-key": merchant.apiKey },
      },
    };
    // Each route is warmed up right before it is measured (JIT, prepared statements, the address
    // pool; a switch of route costs the server a few seconds of re-optimisation), so the figures
    // are steady-state throughput, not a cold start.
    const measure = async ({ title, ...options }: (typeof routes)[keyof typeof routes]) => {
      await run(title, { ...options, duration: 3 });
      return run(title, options);
    };
    const ping = await measure(routes.ping);
    const create = await measure(routes.create);
    const status = await measure(routes.status);

    console.log(`\nautocannon -c ${CONNECTIONS} -d ${DURATION}s against next start (PostgreSQL)\n`);
    console.log(
      `${"route".padEnd(34)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"× ping".padStart(7)} ${"failed".padStart(7)}`,
    );
    for (const r of [ping, create, status]) {
      console.log(
        `${r.title.padEnd(34)} ${r.rps.toFixed(0).padStart(8)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${(r.rps / ping.rps).toFixed(2).padStart(7)} ${String(r.failed).padStart(7)}`,
      );
    }
    console.log(
      `\ngoals: create ≥ 0.50 × ping (${(create.rps / ping.rps).toFixed(2)}), status ≥ 0.80 × ping (${(status.rps / ping.rps).toFixed(2)})`,
    );
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
