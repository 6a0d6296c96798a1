/**
 * `npm run bench:instances` (PostgreSQL + anvil with BSC's 0.45 s blocks, the production build):
 * payment/create throughput and detection latency with one instance and with two on the same
 * database, load spread evenly over them. On a 2-core machine the point is that nothing degrades
 * or duplicates, not a speed-up: every create answered 2xx is found in the database by its session
 * id (recorded = 2xx, warm-up included), and no deposit index is handed out twice. Detection: from the
 * transfer's block arriving (the bench's own newHeads subscription) to the session reading
 * `completed` through the *other* instance's API (asked every 20 ms).
 */
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { type Address, createPublicClient, createWalletClient, erc20Abi, type Hex, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { openPostgres } from "@/lib/db/client";
import { rowsOf } from "@/lib/db/rows";
import { startAnvil } from "@/lib/engine/dev/anvil";
import { ANVIL_DEFAULT_KEYS } from "@/lib/engine/dev/demo-token";
import { ensureBuild, type Instance, startInstance } from "../tests/helpers/instances";
import { createBenchDatabase } from "./database";
import { watchHeads } from "./heads";
import { benchMerchant } from "./merchant";
import { BENCH_MNEMONIC } from "./server";
import { deployBenchToken } from "./token";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 30);

interface Figures {
  instances: number;
  createsPerSecond: number;
  /** Creates answered 2xx (warm-up and measured run), and those not (errors, timeouts). */
  ok: number;
  failed: number;
  /** Of the 2xx answers, the sessions found in the database; all sessions there; how many share a deposit index. */
  recorded: number;
  sessions: number;
  duplicateIndexes: number;
  detection: number[];
}

async function measure(count: number): Promise<Figures> {
  const database = await createBenchDatabase(`instances${count}`);
  const anvil = await startAnvil({ chainId: 56, blockTime: 0.45 });
  const ws = anvil.url.replace(/^http/, "ws");
  const env = {
    DATABASE_URL: database.url,
    BSC_RPC_URL: anvil.url,
    BSC_WS_URL: ws,
    MASTER_MNEMONIC: BENCH_MNEMONIC,
    NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
    CONFIRMATIONS: "1",
    RATE_LIMIT_PER_MINUTE: "100000000",
    REGISTER_RATE_LIMIT_PER_HOUR: "1000",
    LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
  };
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < count; i++) instances.push(await startInstance(`i${i}`, env));
    const [first] = instances;
    if (!first) throw new Error("no instance");
    const token = await deployBenchToken(anvil.url);
    const merchant = await benchMerchant(first.url, database.url, token);
    const headers = { "content-type": "application/json", "x-api-key": merchant.apiKey };
    const body = JSON.stringify({ tokenId: merchant.tokenId, amount: "10.5" });

    // Create throughput: the same connections in all, split evenly over the instances; warmed up
    // first. Each 2xx answer's session id is kept: every one must be in the database. (Requests
    // still in flight when a run ends are recorded too, but their answers are never read.)
    const answered: string[] = [];
    const onResponse = (status: number, responseBody: string) => {
      if (status >= 200 && status < 300) answered.push((JSON.parse(responseBody) as { data: { sessionId: string } }).data.sessionId);
    };
    const load = (duration: number) =>
      Promise.all(
        instances.map((instance) =>
          autocannon({
            url: `${instance.url}/api/v1/payment/create`,
            requests: [{ method: "POST", headers, body, onResponse }],
            connections: Math.ceil(CONNECTIONS / count),
            duration,
          }),
        ),
      );
    const warmUp = await load(3);
    const results = await load(DURATION);
    const handle = openPostgres(database.url, { max: 1 });
    const [row] = rowsOf<{ sessions: number; indexes: number; answered: number }>(
      await handle.db.execute(sql`
        select count(*)::int as sessions, count(distinct deposit_index)::int as indexes,
          count(*) filter (where id = any(${`{${answered.join(",")}}`}::uuid[]))::int as answered
        from payment_sessions`),
    );
    await handle.close();
    const all = [...warmUp, ...results];

    // Detection: payments created round-robin, each read through the next instance.
    const client = createPublicClient({ transport: http(anvil.url) });
    const chain = {
      id: 56,
      name: "bench",
      nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
      rpcUrls: { default: { http: [anvil.url] } },
    };
    const payer = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[1] as Hex), chain, transport: http(anvil.url) });
    const detection: number[] = [];
    const heads = await watchHeads(anvil.url);
    for (let i = 0; i < PAYMENTS; i++) {
      const creator = instances[i % count] as Instance;
      const reader = instances[(i + 1) % count] as Instance;
      const created = await fetch(`${creator.url}/api/v1/payment/create`, {
        method: "POST",
        headers,
        body: JSON.stringify({ tokenId: merchant.tokenId, amount: "1" }),
      }).then((r) => r.json() as Promise<{ data: { sessionId: string; depositAddress: Address } }>);
      const hash = await payer.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "transfer",
        args: [created.data.depositAddress, parseUnits("1", 18)],
      });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      for (;;) {
        const status = await fetch(`${reader.url}/api/v1/payment/${created.data.sessionId}/status`, { headers })
          .then((r) => r.json() as Promise<{ data: { status: string } }>)
          .then((r) => r.data.status);
        if (status === "completed") break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const completedAt = Date.now();
      detection.push(completedAt - (await heads.arrivedAt(receipt.blockNumber)));
    }
    heads.close();
    return {
      instances: count,
      createsPerSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
      ok: all.reduce((sum, r) => sum + r["2xx"], 0),
      failed: all.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
      recorded: row?.answered ?? 0,
      sessions: row?.sessions ?? 0,
      duplicateIndexes: (row?.sessions ?? 0) - (row?.indexes ?? 0),
      detection,
    };
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    await anvil.stop();
    await database.drop();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function main() {
  await ensureBuild();
  const runs = [await measure(1), await measure(2)];
  console.log(
    `\npayment/create: autocannon, ${CONNECTIONS} connections in all for ${DURATION} s; detection: ${PAYMENTS} payments, 0.45 s blocks\n`,
  );
  console.log("| instances | create/s | 2xx | recorded | duplicate indices | not 2xx | detection p50 / p99 |");
  console.log("|---|---|---|---|---|---|---|");
  for (const r of runs) {
    const detection = `${(percentile(r.detection, 50) / 1000).toFixed(2)} s / ${(percentile(r.detection, 99) / 1000).toFixed(2)} s`;
    console.log(
      `| ${r.instances} | ${r.createsPerSecond.toFixed(0)} | ${r.ok} | ${r.recorded} | ${r.duplicateIndexes} | ${r.failed} | ${detection} |`,
    );
  }
  for (const r of runs)
    console.log(
      `${r.instances} instance(s): ${r.sessions - r.recorded} more sessions recorded whose answers were still in flight when a run ended`,
    );
  const broken = runs.filter((r) => r.recorded !== r.ok || r.duplicateIndexes > 0);
  if (broken.length > 0) throw new Error("a 2xx create not recorded, or a deposit index handed out twice: see the table");
  console.log("\nevery 2xx create recorded once, no deposit index twice");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
