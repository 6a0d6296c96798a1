import { getConfig } from "../../base/config";
import { log } from "../../base/log";
import { getDatabase } from "../../db";
import type { DatabaseHandle } from "../../db/client";
import { notifyReachesListen } from "../../db/listen-check";
import { wireEngine } from "../../domain/payments/engine-ports";
import { backfillEndpoints } from "../../domain/webhooks/endpoints";
import { loadGasTankGeneration } from "../../engine/chain/gas-tank";
import { verifyChainIds } from "../../engine/chain/verify-chain-ids";
import { startLocalChain } from "../../engine/dev/local-chain";
import { checkBatchSweeping } from "../../engine/forwarding/batched/batch-support";
import { seedLocalDemo } from "../seed/demo-merchant";

const STARTUP_KEY = Symbol.for("bsc-pay.startup");
type StartupHolder = { [STARTUP_KEY]?: Promise<void> };

/**
 * Brings the process up once: configuration, migrated database, the embedded chain with its demo
 * data. Route handlers await it too, so a request that arrives first simply waits. The engine's
 * ports are wired first, whatever module instance asks (lib/domain/payments/engine-ports.ts).
 */
export function ensureStarted(): Promise<void> {
  wireEngine();
  const holder = globalThis as StartupHolder;
  holder[STARTUP_KEY] ??= start();
  return holder[STARTUP_KEY];
}

async function start(): Promise<void> {
  const config = getConfig();
  const handle = await getDatabase();
  const { db, driver } = handle;
  log.info({ driver, networks: config.networks.map((n) => n.name), jobs: config.jobs.mode }, "database ready");
  if (driver === "postgres") warnUnlessListenWorks(handle);
  if (!config.metricsToken && config.networks.some((n) => n.name !== "local")) {
    log.warn(
      "METRICS_TOKEN is not set: /api/metrics answers loopback clients only (a proxy on this machine makes every client loopback unless TRUSTED_PROXY_HOPS is set); set the token",
    );
  }
  await backfillEndpoints(db);
  // Before anything signs: the gas tank key in use may have been rotated (sweeper rotate-operator).
  await loadGasTankGeneration(db);
  if (config.localChain) {
    const rpcUrl = await startLocalChain(config);
    await seedLocalDemo(db, config, rpcUrl);
  }
  await verifyChainIds(config.networks.filter((n) => !n.embedded));
  await checkBatchSweeping(
    db,
    config.networks.map((n) => n.name),
  );
}

/** Not awaited: start-up does not wait for it; a pooler in the way is reported, not refused. */
function warnUnlessListenWorks(handle: DatabaseHandle): void {
  const warning =
    "LISTEN/NOTIFY does not work through DATABASE_URL (a transaction-mode pooler?): checkout pages fall back to reading every CHECKOUT_REFRESH_MS, and the job leader's session lock is unreliable. Use a direct or session-mode connection URL";
  notifyReachesListen(handle).then(
    (works) => {
      if (!works) log.warn(warning);
    },
    (error: unknown) => log.warn({ err: error instanceof Error ? error.message : String(error) }, warning),
  );
}
