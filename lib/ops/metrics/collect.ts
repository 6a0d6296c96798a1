import { sql } from "drizzle-orm";
import { metrics } from "../../base/metrics";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { walletStalls } from "../../engine/ledger/watchdog";
import { getHealth } from "../health/health";
import { countsByStatus } from "../health/status";

/**
 * Reads the levels (heads, cursors, queues, balances) into the gauges right before a scrape, from
 * the same sources as /api/health, plus a few counts by status. Gauges are reset first, so a
 * status or network that is gone leaves no stale series behind.
 */
export async function collectLevels(db: Db): Promise<void> {
  const { levels } = metrics();
  const health = await getHealth();
  const [counts, forwards, batches, entries] = await Promise.all([
    countsByStatus(db),
    countBy(db, sql`select status as label, network, count(*)::int as n from forwards group by status, network`),
    countBy(db, sql`select status as label, network, count(*)::int as n from sweep_batches where kind = 'sweep' group by status, network`),
    countBy(
      db,
      sql`select status as label, network, coalesce(sum(size), 0)::int as n from sweep_batches where kind = 'sweep' group by status, network`,
    ),
  ]);
  const stalls = await walletStalls(db);
  for (const g of Object.values(levels)) g.reset();

  for (const [network, chain] of Object.entries(health.chains)) {
    if (chain.head !== null) levels.head.set({ network }, chain.head);
    if (chain.cursor !== null) levels.cursor.set({ network }, chain.cursor);
    if (chain.lag !== null) levels.lag.set({ network }, chain.lag);
    levels.rpcUp.set({ network }, chain.error ? 0 : 1);
    if (chain.gasTank.balance !== null) levels.gasTankBalance.set({ network }, Number(chain.gasTank.balance));
    levels.gasTankLow.set({ network }, chain.gasTank.low ? 1 : 0);
    levels.quarantinedLogs.set({ network }, chain.quarantinedLogs);
    levels.sweepMode.set({ network, mode: chain.sweepMode }, 1);
    levels.gasPriceAboveMax.set({ network }, chain.gasPrice.aboveMax ? 1 : 0);
    if (chain.gasPrice.current !== null) levels.gasPriceGwei.set({ network }, Number(chain.gasPrice.current));
    if (chain.newHeads.source === "websocket") {
      levels.newHeadsConnected.set({ network }, chain.newHeads.connected ? 1 : 0);
      levels.newHeadsReconnects.set({ network }, chain.newHeads.reconnects);
    }
    // The gas tank always has a series, so an alert on it has something to read.
    levels.walletStuckSeconds.set({ network, wallet: chain.gasTank.address }, 0);
  }
  const now = Date.now();
  for (const s of stalls)
    levels.walletStuckSeconds.set({ network: s.network, wallet: s.wallet }, Math.round((now - s.since.getTime()) / 1000));
  for (const [gauge, rows] of [
    [levels.sweepBatches, batches],
    [levels.sweepBatchEntries, entries],
  ] as const) {
    for (const [key, n] of rows) {
      const [status, network] = key.split("\u0000") as [string, string];
      gauge.set({ network, status }, n);
    }
  }
  for (const status of ["pending", "completed", "expired", "cancelled"])
    levels.sessions.set({ status }, counts.get(`sessions ${status}`) ?? 0);
  for (const [key, n] of forwards) {
    const [status, network] = key.split("\u0000") as [string, string];
    levels.forwards.set({ network, status }, n);
  }
  for (const network of Object.keys(health.chains))
    if (!forwards.has(`held\u0000${network}`)) levels.forwards.set({ network, status: "held" }, 0);
  for (const status of ["submitted", "completed", "failed"]) levels.withdrawals.set({ status }, counts.get(`withdrawals ${status}`) ?? 0);
  for (const status of ["pending", "delivered", "failed"]) levels.webhookDeliveries.set({ status }, counts.get(`webhooks ${status}`) ?? 0);
}

/** Metrics in the Prometheus text format, levels read now. */
export async function renderMetrics(db: Db): Promise<{ body: string; contentType: string }> {
  await collectLevels(db);
  const { registry } = metrics();
  return { body: await registry.metrics(), contentType: registry.contentType };
}

async function countBy(db: Db, query: ReturnType<typeof sql>): Promise<Map<string, number>> {
  const rows = rowsOf<{ label: string; network: string | null; n: number | string }>(await db.execute(query));
  return new Map(rows.map((r) => [r.network === null ? r.label : `${r.label}\u0000${r.network}`, Number(r.n)]));
}
