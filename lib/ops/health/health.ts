import { and, eq, inArray, like, sql } from "drizzle-orm";
import { formatEther, formatGwei } from "viem";
import { getConfig } from "../../base/config";
import { getDb } from "../../db";
import { chainCursors, forwards } from "../../db/schema";
import { webhookBacklog } from "../../domain/webhooks/endpoints";
import { listNetworks, networkConfig, publicClientFor, wsUrlsOf } from "../../engine/chain/networks";
import { serviceAddresses } from "../../engine/chain/wallet-addresses";
import { knownSweepMode, type SweepMode } from "../../engine/forwarding/batched/batch-support";
import { countHeldForwards } from "../../engine/forwarding/forward-admin";
import { type WalletStall, walletStalls } from "../../engine/ledger/watchdog";
import { countQuarantined } from "../../engine/scanner/quarantine";
import { lastReconciliation } from "../custody/reconcile";
import { runnerFollower, runnerState } from "../jobs/runner-registry";
import { ensureStarted } from "../startup/startup";

export interface ChainHealth {
  chainId: number;
  head: number | null;
  cursor: number | null;
  lag: number | null;
  lastScanAt: string | null;
  scanError: string | null;
  gasTank: { address: string; balance: string | null; low: boolean; waitingForwards: number };
  /** Forwards that need the operator (npm run admin -- forwards held). */
  heldForwards: number;
  /** Logs the scanner set aside (npm run admin -- quarantine). */
  quarantinedLogs: number;
  /** How deposits are swept here: batched (EIP-7702), classic, or unknown until the chain answered. */
  sweepMode: SweepMode;
  /** Service wallets whose next nonce is not mined in time (the ledger's watchdog re-prices or fills it meanwhile). */
  stuckWallets: { wallet: "gas_tank" | "withdrawal" | "deposit"; kind: string; nonce: number; since: string }[];
  /**
   * The node's gas price against MAX_GAS_PRICE (gwei, decimal strings). While `aboveMax`, nothing
   * is signed on this network: sweeps, top-ups and withdrawals wait (the health is degraded).
   */
  gasPrice: { current: string | null; max: string; aboveMax: boolean };
  newHeads: NewHeadsHealth;
  error?: string;
}

/**
 * How new blocks are noticed: "websocket" where the network offers one and the embedded runner
 * follows it (the leader only: read it on the instance whose jobs.leader is true), "poll" otherwise.
 * `connected`: a subscription is confirmed now; while it is not, the poll carries detection.
 */
export interface NewHeadsHealth {
  source: "websocket" | "poll";
  connected: boolean;
  /** Sockets opened again since this process began leading (a storm shows here). */
  reconnects: number;
  lastHeadAt: string | null;
}

export interface Health {
  status: "ok" | "degraded" | "error";
  db: "ok" | "unavailable";
  chains: Record<string, ChainHealth>;
  /** Webhook deliveries still to send, and those that gave up after every retry (merchants see them). */
  webhooks?: { pending: number; failed: number };
  /** The last ledger-against-chain run (daily, or npm run admin -- reconcile); null before the first. */
  reconciliation?: { lastRunAt: string; differences: number } | null;
  jobs: {
    mode: "embedded" | "inngest";
    leader?: boolean;
    lastScanAt?: string | null;
    lastWorkAt?: string | null;
    lastError?: string | null;
  };
}

const RPC_TIMEOUT_MS = 3000;

const HEALTH_CACHE_KEY = Symbol.for("bsc-pay.health-cache");
type HealthCache = { at: number; health: Promise<Health>; config: object };

/**
 * GET /api/health: public, and each answer costs RPC calls. One answer serves every request for
 * HEALTH_CACHE_MS (2 s), and concurrent requests share the one being computed, so polling it
 * however often costs the RPC one round per period.
 */
export function getHealthCached(now = Date.now()): Promise<Health> {
  const holder = globalThis as { [HEALTH_CACHE_KEY]?: HealthCache };
  const cached = holder[HEALTH_CACHE_KEY];
  const config = getConfig();
  if (cached && cached.config === config && now - cached.at < config.healthCacheMs) return cached.health;
  const health = getHealth();
  holder[HEALTH_CACHE_KEY] = { at: now, health, config };
  // A failure is not remembered beyond this round.
  health.catch(() => {
    if (holder[HEALTH_CACHE_KEY]?.health === health) delete holder[HEALTH_CACHE_KEY];
  });
  return health;
}

/**
 * "error" (HTTP 503) when the service cannot serve: not started or database down. An unreachable
 * RPC is "degraded": the API still answers, payments are detected once the chain is back.
 * Public: it carries kinds of problems, never raw error text, RPC URLs (provider keys live in
 * their paths) or database messages.
 */
export async function getHealth(options: { startApp?: boolean } = {}): Promise<Health> {
  const runner = runnerState();
  const jobs: Health["jobs"] = runner
    ? {
        mode: runner.mode,
        leader: runner.leader,
        lastScanAt: runner.lastScanAt,
        lastWorkAt: runner.lastWorkAt,
        lastError: runner.lastError,
      }
    : { mode: getConfig().jobs.mode };
  try {
    // Operator commands read the health of a service running elsewhere: they must not start one (demo seed, anvil).
    if (options.startApp !== false) await ensureStarted();
    const db = await getDb();
    await db.execute(sql`select 1`);
  } catch {
    return { status: "error", db: "unavailable", chains: {}, jobs };
  }
  const db = await getDb();
  const stalls = await walletStalls(db);
  const chains = Object.fromEntries(
    await Promise.all(
      listNetworks().map(
        async (n) =>
          [
            n.name,
            await chainHealth(
              n.name,
              n.chainId,
              stalls.filter((s) => s.network === n.name),
            ),
          ] as const,
      ),
    ),
  );
  const degraded = Object.values(chains).some((c) => c.error !== undefined || c.stuckWallets.length > 0 || c.gasPrice.aboveMax);
  const last = await lastReconciliation(db);
  return {
    status: degraded ? "degraded" : "ok",
    db: "ok",
    chains,
    webhooks: await webhookBacklog(db),
    reconciliation: last ? { lastRunAt: last.ranAt, differences: last.differences } : null,
    jobs,
  };
}

/** Below this, the gas tank is reported low even before a forward has to wait for it. */
const GAS_TANK_LOW_WEI = 5_000_000_000_000_000n; // 0.005 BNB ≈ 100 sweeps at 1 gwei

async function chainHealth(network: string, chainId: number, stalls: WalletStall[]): Promise<ChainHealth> {
  const db = await getDb();
  const [cursorRow] = await db.select().from(chainCursors).where(eq(chainCursors.network, network));
  const cursor = cursorRow ? Number(cursorRow.lastScannedBlock) : null;
  const tank = serviceAddresses().gasTank();
  const maxGasPrice = networkConfig(network)?.maxGasPrice ?? 0n;
  const [waiting] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(forwards)
    .where(and(eq(forwards.network, network), inArray(forwards.status, ["pending"]), like(forwards.lastError, "gas tank%")));
  const base = {
    chainId,
    cursor,
    lastScanAt: cursorRow?.lastScanAt?.toISOString() ?? null,
    // Written by the scanner as a kind of problem (see publicScanError), never the RPC's words.
    scanError: cursorRow?.lastError ?? null,
    heldForwards: await countHeldForwards(db, network),
    newHeads: newHeadsOf(network),
    quarantinedLogs: await countQuarantined(db, network),
    sweepMode: await knownSweepMode(db, network),
    stuckWallets: stalls.map((s) => ({
      wallet: s.walletRole as "gas_tank" | "withdrawal" | "deposit",
      kind: s.kind,
      nonce: s.nonce,
      since: s.since.toISOString(),
    })),
  };
  try {
    const client = publicClientFor(network);
    const [head, balance, gasPrice] = await withTimeout(
      Promise.all([
        client.getBlockNumber({ cacheTime: 0 }),
        client.getBalance({ address: tank }),
        // Not answering the price is not "RPC unreachable": the price is then unknown (null).
        client.getGasPrice().catch(() => null),
      ]),
      RPC_TIMEOUT_MS,
    );
    const waitingForwards = Number(waiting?.n ?? 0);
    return {
      ...base,
      head: Number(head),
      lag: cursor === null ? null : Math.max(0, Number(head) - cursor),
      gasTank: { address: tank, balance: formatEther(balance), low: waitingForwards > 0 || balance < GAS_TANK_LOW_WEI, waitingForwards },
      gasPrice: {
        current: gasPrice === null ? null : formatGwei(gasPrice),
        max: formatGwei(maxGasPrice),
        aboveMax: gasPrice !== null && gasPrice > maxGasPrice,
      },
    };
  } catch {
    return {
      ...base,
      head: null,
      lag: null,
      gasTank: { address: tank, balance: null, low: false, waitingForwards: Number(waiting?.n ?? 0) },
      gasPrice: { current: null, max: formatGwei(maxGasPrice), aboveMax: false },
      error: "RPC unreachable",
    };
  }
}

function newHeadsOf(network: string): NewHeadsHealth {
  const config = networkConfig(network);
  const follows = getConfig().jobs.mode === "embedded" && config !== undefined && wsUrlsOf(config).length > 0;
  // State only: never the endpoint (provider keys live in URLs) nor the socket's last error text.
  const state = runnerFollower(network)?.state;
  return {
    source: follows ? "websocket" : "poll",
    connected: state?.subscribed ?? false,
    reconnects: Math.max(0, (state?.connects ?? 0) - 1),
    lastHeadAt: state?.lastHeadAt ? new Date(state.lastHeadAt).toISOString() : null,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), ms);
    }),
  ]);
}
