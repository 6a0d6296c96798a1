/**
 * `admin status`: the operator's one screen — networks, gas tanks, stuck wallets, gas spent for
 * merchants, queues and the last reconciliation — and whether any of it needs attention. The
 * counts per status are shared with /metrics.
 */
import { sql } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import type { Db } from "../../db";
import { rowsOf } from "../../db/rows";
import { topGasSpenders, utcDayStart } from "../../domain/gas/spend";
import { walletStalls } from "../../engine/ledger/watchdog";
import { lastReconciliation } from "../custody/reconcile-report";
import { getHealth } from "./health";

/**
 * Lag (blocks) above which a network counts as behind in the operator's view (the alert's
 * threshold): 45 blocks, 20 s at BSC's 0.45 s blocks (it was 20 blocks when they were 1 s). Not
 * fewer: under JOBS=inngest the scan runs 25 rounds 2 s apart from a minute's cron, so ~12 s (27
 * blocks) pass between one run's last round and the next run's first every minute, on a healthy
 * service.
 */
export const LAG_ALERT_BLOCKS = 45;

/** Whether a scanner `lag` blocks behind the head needs the operator (null: not known, not behind). */
export function scannerBehind(lag: number | null): boolean {
  return (lag ?? 0) > LAG_ALERT_BLOCKS;
}

/**
 * The operator's one screen: every part with its state and, where something needs doing, what.
 * `healthy` is false when anything below would page someone (the README's alerts).
 */
export async function operatorStatus(db: Db): Promise<{ lines: string[]; healthy: boolean }> {
  const health = await getHealth({ startApp: false });
  const counts = await countsByStatus(db);
  const last = await lastReconciliation(db);
  const problems: string[] = [];
  const lines = [`BSC Pay — ${new Date().toISOString()} — database ${health.db}, jobs ${health.jobs.mode}`];

  lines.push("networks");
  for (const [name, c] of Object.entries(health.chains)) {
    const rpc = c.error ? `RPC ${c.error}` : `head ${c.head}, cursor ${c.cursor ?? "none"}, lag ${c.lag ?? "?"}`;
    lines.push(`  ${name.padEnd(12)} ${rpc}${c.scanError ? `, last scan error: ${c.scanError}` : ""}`);
    if (c.error) problems.push(`${name}: RPC unreachable`);
    if (scannerBehind(c.lag)) problems.push(`${name}: scanner ${c.lag} blocks behind`);
    lines.push(
      `  ${"".padEnd(12)} gas tank ${c.gasTank.address} ${c.gasTank.balance ?? "?"} BNB${c.gasTank.low ? " — LOW" : ""}${c.gasTank.waitingForwards ? `, ${c.gasTank.waitingForwards} forward(s) waiting for it` : ""}`,
    );
    if (c.gasTank.low) problems.push(`${name}: gas tank low (fund ${c.gasTank.address})`);
    lines.push(`  ${"".padEnd(12)} held forwards ${c.heldForwards}, quarantined logs ${c.quarantinedLogs}`);
    lines.push(
      `  ${"".padEnd(12)} gas price ${c.gasPrice.current ?? "?"} gwei, MAX_GAS_PRICE ${c.gasPrice.max} gwei${c.gasPrice.aboveMax ? " — ABOVE: nothing is signed" : ""}`,
    );
    if (c.gasPrice.aboveMax)
      problems.push(
        `${name}: the node's gas price (${c.gasPrice.current} gwei) is above MAX_GAS_PRICE (${c.gasPrice.max} gwei): sweeps, top-ups and withdrawals wait`,
      );
    if (c.heldForwards > 0) problems.push(`${name}: ${c.heldForwards} held forward(s) (npm run admin -- forwards held)`);
  }
  const stalls = await walletStalls(db);
  if (stalls.length > 0) {
    lines.push("stuck wallets (the ledger re-prices or fills their next nonce)");
    for (const s of stalls) {
      const minutes = Math.round((Date.now() - s.since.getTime()) / 60_000);
      lines.push(
        `  ${s.network.padEnd(12)} ${s.walletRole} ${s.wallet}: ${s.kind} at nonce ${s.nonce} not mined for ${minutes} min (since ${s.since.toISOString()})`,
      );
      problems.push(`${s.network}: ${s.walletRole} wallet ${s.wallet} stuck at nonce ${s.nonce} (${s.kind})`);
    }
  }
  const spenders = await topGasSpenders(db, utcDayStart());
  lines.push("gas spent for merchants today (UTC; sweeps, batch shares, top-ups)");
  if (spenders.length === 0) lines.push("  none");
  for (const s of spenders) lines.push(`  ${s.email.padEnd(32)} ${formatAmount(s.wei, 18)} BNB`);
  const n = (table: string, status: string) => counts.get(`${table} ${status}`) ?? 0;
  lines.push(
    "queues",
    `  sessions     pending ${n("sessions", "pending")}, completed ${n("sessions", "completed")}, expired ${n("sessions", "expired")}, cancelled ${n("sessions", "cancelled")}`,
    `  forwards     open ${n("forwards", "pending") + n("forwards", "gas_sent") + n("forwards", "sweep_sent") + n("forwards", "batched")}, held ${n("forwards", "held")}, completed ${n("forwards", "completed")}`,
    `  withdrawals  submitted ${n("withdrawals", "submitted")}, completed ${n("withdrawals", "completed")}, failed ${n("withdrawals", "failed")}`,
    `  webhooks     pending ${n("webhooks", "pending")}, failed ${n("webhooks", "failed")}, delivered ${n("webhooks", "delivered")}`,
  );
  if (n("webhooks", "failed") > 0)
    problems.push(`${n("webhooks", "failed")} webhook deliveries failed for good (merchants see them and can redeliver)`);
  lines.push("reconciliation");
  if (!last) lines.push("  never run (npm run admin -- reconcile)");
  else {
    lines.push(`  last run ${last.ranAt}: ${last.differences === 0 ? "no differences" : `${last.differences} difference(s)`}`);
    for (const detail of last.details.slice(0, 10)) lines.push(`    ${detail}`);
    if (last.differences > 0) problems.push(`reconciliation found ${last.differences} difference(s)`);
  }
  lines.push(problems.length === 0 ? "all good" : `needs attention:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  return { lines, healthy: problems.length === 0 };
}

/** "<table> <status>" → count, for sessions, forwards, withdrawals and webhook deliveries. */
export async function countsByStatus(db: Db): Promise<Map<string, number>> {
  const rows = rowsOf<{ tbl: string; status: string; n: number | string }>(
    await db.execute(sql`
      select 'sessions' as tbl, status, count(*)::int as n from payment_sessions group by status
      union all select 'forwards', status, count(*)::int from forwards group by status
      union all select 'withdrawals', status, count(*)::int from withdrawals group by status
      union all select 'webhooks', status, count(*)::int from webhook_deliveries group by status`),
  );
  return new Map(rows.map((r) => [`${r.tbl} ${r.status}`, Number(r.n)]));
}
