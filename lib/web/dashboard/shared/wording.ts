/**
 * The words a merchant reads for the engine's names: networks, balances, statuses of payments,
 * forwards (the sweep from a deposit address to the merchant's wallet) and withdrawals, and what
 * gas was spent on. One map, so every page says the same thing, and engine terms ("local",
 * "batched", "sweep_sent") never show.
 */

import type { GasSpendKind } from "../../../domain/gas/spend";

const NETWORK_LABELS: Record<string, string> = { bsc: "BNB Smart Chain", "bsc-testnet": "BSC Testnet", local: "Local test chain" };
/** The same, where a phone's top bar has room for a word or two. */
const SHORT_LABELS: Record<string, string> = { bsc: "BSC", "bsc-testnet": "Testnet", local: "Local chain" };

/** Networks whose tokens are worth nothing: the dashboard warns that it is in test mode. */
const TEST_NETWORKS = new Set(["bsc-testnet", "local"]);

export function networkLabel(network: string): string {
  return NETWORK_LABELS[network] ?? network;
}

/**
 * A balance's label: the symbol, and the network it is on when the gateway runs more than one
 * ("BNB (BSC Testnet)"), never the engine's id ("BNB (bsc-testnet)").
 */
export function balanceLabel(symbol: string, network: string, networks: readonly string[]): string {
  return networks.length > 1 ? `${symbol} (${networkLabel(network)})` : symbol;
}

/**
 * What the gas tank's BNB paid for: the top-up that lets a deposit address send a payment on,
 * one transaction forwarding many payments, a withdrawal, and a stuck transaction sent again
 * with a higher fee.
 */
export const GAS_SPEND_LABELS: Record<GasSpendKind, string> = {
  sweep: "Forwarding payments",
  batch: "Forwarding in groups",
  withdrawal: "Withdrawals",
  replacement: "Speed-ups",
};

/**
 * What the top bar says about the configured networks, and whether to show the test-mode banner:
 * "all" when every network is a test one, "some" when test networks run beside BNB Smart Chain.
 */
export function networkMode(networks: string[]): {
  label: string;
  shortLabel: string;
  testMode: "none" | "some" | "all";
  testNetworks: string[];
} {
  const testNetworks = networks.filter((n) => TEST_NETWORKS.has(n)).map(networkLabel);
  const label = networks.length ? networks.map(networkLabel).join(" · ") : "No network configured";
  const testMode = testNetworks.length === 0 ? "none" : testNetworks.length === networks.length ? "all" : "some";
  const shortLabel = networks.length ? networks.map((n) => SHORT_LABELS[n] ?? n).join(" · ") : "No network";
  return { label, shortLabel, testMode, testNetworks };
}

export type StatusKind = "payment" | "forward" | "withdrawal" | "refund" | "payout_batch" | "payout";

const STATUS_LABELS: Record<StatusKind, Record<string, string>> = {
  payment: { pending: "Pending", completed: "Completed", expired: "Expired", cancelled: "Cancelled" },
  forward: {
    pending: "Waiting to send",
    gas_sent: "Preparing the transfer",
    sweep_sent: "Sending to your wallet",
    batched: "Sending to your wallet",
    completed: "Sent to your wallet",
    held: "On hold",
  },
  withdrawal: {
    submitted: "Sending",
    completed: "Completed",
    failed: "Failed",
    awaiting_approval: "Awaiting approval",
    rejected: "Rejected",
  },
  refund: {
    awaiting_address: "Waiting for the payer's address",
    awaiting_funds: "Waiting for funds",
    sending: "Sending",
    completed: "Refunded",
    failed: "Failed",
    cancelled: "Cancelled",
    awaiting_approval: "Awaiting approval",
    rejected: "Rejected",
  },
  payout_batch: {
    awaiting_approval: "Awaiting approval",
    rejected: "Rejected",
    pending: "Queued",
    sending: "Sending",
    completed: "Completed",
    partially_failed: "Partly failed",
    failed: "Failed",
  },
  payout: { pending: "Queued", sending: "Sending", completed: "Paid", failed: "Failed" },
};

/** "Completed", "Sending to your wallet"…; an unknown status is shown capitalised, never raw. */
export function statusLabel(kind: StatusKind, status: string): string {
  const known = STATUS_LABELS[kind][status];
  if (known) return known;
  const words = status.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The tone of a status badge: settled well, still moving, over without money, or needs a look. */
export function statusTone(status: string): "success" | "warning" | "danger" | "neutral" {
  if (status === "completed") return "success";
  if (status === "failed" || status === "held" || status === "partially_failed") return "danger";
  if (status === "expired" || status === "cancelled" || status === "rejected") return "neutral";
  return "warning";
}

/**
 * The Order column of the payments list: the shop's order reference, else its description, else
 * the first key=value of its metadata (what the shop sent to recognise the payment), else null.
 */
export function orderLabel(row: { orderId: string | null; description: string | null; metadata: Record<string, unknown> | null }): {
  text: string;
  kind: "orderId" | "description" | "metadata";
} | null {
  if (row.orderId) return { text: row.orderId, kind: "orderId" };
  if (row.description) return { text: firstLine(row.description), kind: "description" };
  const first = row.metadata ? Object.entries(row.metadata).find(([, v]) => v !== null && v !== undefined) : undefined;
  if (!first) return null;
  const [key, value] = first;
  const shown = typeof value === "object" ? JSON.stringify(value) : String(value);
  return { text: `${key}=${shown.length > 40 ? `${shown.slice(0, 39)}…` : shown}`, kind: "metadata" };
}

function firstLine(text: string): string {
  const line = text.split("\n")[0] ?? text;
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * An account as the switcher names it. Accounts have no name of their own yet: the e-mail the
 * account was opened with, as "<e-mail>'s account", so it reads as an account rather than a person.
 */
export function accountName(openedWith: string): string {
  return `${openedWith}'s account`;
}
