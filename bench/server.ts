import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { type AnvilNode, type AnvilOptions, freePort, startAnvil } from "@/lib/engine/dev/anvil";
import { createBenchDatabase } from "./database";

/**
 * A production server for benchmarks: `next start` on a fresh PostgreSQL database, with an anvil
 * playing BSC (chain 56; mining on every transaction unless given a block time — LOCAL_CHAIN_PACE is
 * BSC's — and finalizing the head − 2 as BSC's fast finality). Builds first when there is no build.
 */
export const BENCH_MNEMONIC = "legal winner thank year wave sausage worth useful legal winner thank yellow";

export interface BenchServer {
  url: string;
  databaseUrl: string;
  anvil: AnvilNode;
  stop(): Promise<void>;
}

export async function startBenchServer(
  env: Record<string, string> | ((anvil: AnvilNode) => Record<string, string>) = {},
  anvilOptions: Pick<AnvilOptions, "blockTime" | "slotsInAnEpoch"> = {},
): Promise<BenchServer> {
  const database = await createBenchDatabase("bench");
  const databaseUrl = database.url;

  // Always measure the code as it is now; BENCH_SKIP_BUILD=1 reuses an existing build.
  if (!existsSync(".next/BUILD_ID") || process.env.BENCH_SKIP_BUILD !== "1") {
    console.log("building (next build)…");
    execFileSync("npm", ["run", "build"], { stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  }
  const anvil = await startAnvil({ chainId: 56, slotsInAnEpoch: 1, ...anvilOptions });
  const port = await freePort();
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server itself.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const server: ChildProcess = spawn(process.execPath, [...nodeArgs, "node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      BSC_RPC_URL: anvil.url,
      MASTER_MNEMONIC: BENCH_MNEMONIC,
      NEXTAUTH_SECRET: "benchmark-secret-0123456789abcdef",
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "100000000",
      ...(typeof env === "function" ? env(anvil) : env),
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error("server did not become healthy in 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    databaseUrl,
    anvil,
    stop: async () => {
      server.kill("SIGTERM");
      await new Promise((r) => (server.exitCode !== null ? r(null) : server.once("exit", r)));
      await anvil.stop();
      await database.drop();
    },
  };
}
