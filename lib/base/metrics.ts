/**
 * The process's Prometheus metrics. Events are counted where they happen (RPC calls, scans,
 * detections, webhook attempts); levels (heads, queues, balances) are read at scrape time by
 * collect.ts. One registry per process, kept on globalThis so Next.js module reloads in dev do
 * not register every metric twice.
 */

import { Counter, Gauge, Histogram, Registry } from "prom-client";

interface Metrics {
  registry: Registry;
  rpcRequests: Counter<"network" | "method" | "outcome">;
  scanDuration: Histogram<"network">;
  scanErrors: Counter<"network">;
  detectionLatency: Histogram<"network">;
  webhookAttempts: Counter<"outcome">;
  levels: {
    head: Gauge<"network">;
    cursor: Gauge<"network">;
    lag: Gauge<"network">;
    rpcUp: Gauge<"network">;
    gasTankBalance: Gauge<"network">;
    gasTankLow: Gauge<"network">;
    quarantinedLogs: Gauge<"network">;
    sessions: Gauge<"status">;
    forwards: Gauge<"network" | "status">;
    sweepBatches: Gauge<"network" | "status">;
    sweepBatchEntries: Gauge<"network" | "status">;
    sweepMode: Gauge<"network" | "mode">;
    withdrawals: Gauge<"status">;
    walletStuckSeconds: Gauge<"network" | "wallet">;
    gasPriceAboveMax: Gauge<"network">;
    gasPriceGwei: Gauge<"network">;
    webhookDeliveries: Gauge<"status">;
    newHeadsConnected: Gauge<"network">;
    newHeadsReconnects: Gauge<"network">;
  };
}

const KEY = Symbol.for("bsc-pay.metrics");
type Holder = { [KEY]?: Metrics };

export function metrics(): Metrics {
  const holder = globalThis as Holder;
  holder[KEY] ??= createMetrics();
  return holder[KEY];
}

function createMetrics(): Metrics {
  const registry = new Registry();
  const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Gauge<L>({ name, help, labelNames, registers: [registry] });
  return {
    levels: {
      head: gauge("bscpay_chain_head_block", "Latest block number the RPC reports", ["network"]),
      cursor: gauge("bscpay_chain_cursor_block", "Last block the scanner has recorded", ["network"]),
      lag: gauge(
        "bscpay_chain_lag_blocks",
        "Blocks between the head and the scanner's cursor (alert: > 45, 20 s at 0.45 s blocks, for 2 min)",
        ["network"],
      ),
      rpcUp: gauge("bscpay_rpc_up", "1 when the network's RPC answered this scrape", ["network"]),
      gasTankBalance: gauge("bscpay_gas_tank_balance_bnb", "BNB on the gas tank that pays sweeps and wallet top-ups", ["network"]),
      gasTankLow: gauge("bscpay_gas_tank_low", "1 when the gas tank is low or forwards wait for it (alert)", ["network"]),
      quarantinedLogs: gauge("bscpay_quarantined_logs", "Logs the scanner set aside", ["network"]),
      sessions: gauge("bscpay_sessions", "Payment sessions by status", ["status"]),
      forwards: gauge("bscpay_forwards", "Forwards (sweeps) by status; held ones need the operator (alert: > 0)", ["network", "status"]),
      sweepBatches: gauge(
        "bscpay_sweep_batches",
        "Batched (EIP-7702) sweep transactions by status: sent (on their way), mined, reverted (alert: increasing), replaced",
        ["network", "status"],
      ),
      sweepBatchEntries: gauge("bscpay_sweep_batch_entries", "Deposit addresses swept by batches, by the batch's status", [
        "network",
        "status",
      ]),
      sweepMode: gauge(
        "bscpay_sweep_mode",
        "1 for how the network sweeps deposits now: batched, classic, or unknown before the chain answered",
        ["network", "mode"],
      ),
      walletStuckSeconds: gauge(
        "bscpay_wallet_stuck_seconds",
        "Seconds a service wallet's next nonce has not been mined (0 = moving; alert: > 300)",
        ["network", "wallet"],
      ),
      gasPriceAboveMax: gauge(
        "bscpay_gas_price_above_max",
        "1 while the node's gas price is above MAX_GAS_PRICE: nothing is signed on the network (alert: 1 for minutes)",
        ["network"],
      ),
      gasPriceGwei: gauge("bscpay_gas_price_gwei", "The node's gas price (eth_gasPrice) in gwei, as last read", ["network"]),
      withdrawals: gauge("bscpay_withdrawals", "Withdrawals by status; submitted = the queue", ["status"]),
      webhookDeliveries: gauge("bscpay_webhook_deliveries", "Webhook deliveries by status (alert: failed increasing)", ["status"]),
      newHeadsConnected: gauge(
        "bscpay_new_heads_connected",
        "1 while this process follows the network's new heads over WebSocket (the leader only; alert: the max over instances is 0 for minutes)",
        ["network"],
      ),
      newHeadsReconnects: gauge(
        "bscpay_new_heads_reconnects",
        "WebSocket reconnections of the new-heads follower since this process began leading (alert: climbing fast)",
        ["network"],
      ),
    },
    registry,
    rpcRequests: new Counter({
      name: "bscpay_rpc_requests_total",
      help: "JSON-RPC requests to the chain, by method and outcome (ok, or the kind of failure)",
      labelNames: ["network", "method", "outcome"],
      registers: [registry],
    }),
    scanDuration: new Histogram({
      name: "bscpay_scan_duration_seconds",
      help: "Duration of one scanner step (head, logs, recording) per network",
      labelNames: ["network"],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    scanErrors: new Counter({
      name: "bscpay_scan_errors_total",
      help: "Scanner steps that failed",
      labelNames: ["network"],
      registers: [registry],
    }),
    detectionLatency: new Histogram({
      name: "bscpay_detection_latency_seconds",
      help: "From the block time of the transfer that completed a session to the session being completed",
      labelNames: ["network"],
      buckets: [0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: "bscpay_webhook_attempts_total",
      help: "Webhook delivery attempts by outcome (delivered, retrying, failed)",
      labelNames: ["outcome"],
      registers: [registry],
    }),
  };
}
