/**
 * What a reconciliation run found (docs/design.md §16): the ledger's and the chain's figures per token,
 * and every difference an operator must look at. The last run is kept in app_state for
 * /api/health and `admin status`; the report is the lines an operator reads (and cron mails).
 */
import { eq } from "drizzle-orm";
import { type Address, formatUnits } from "viem";
import type { Db } from "../../db";
import { appState } from "../../db/schema";
import { type Coverage, RECENT_DAYS } from "./reconcile-coverage";

/** A catalogue token that has a contract on the network. */
export interface TokenInfo {
  contract: Address;
  symbol: string;
  decimals: number;
}

export interface TokenSummary {
  network: string;
  contract: Address;
  symbol: string;
  decimals: number;
  recorded: bigint;
  forwarded: bigint;
  inFlight: bigint;
  held: bigint;
  belowMinimum: bigint;
  /** What the deposit addresses hold on chain, and what the ledger says they should. */
  onDepositAddresses: bigint;
  expectedOnDepositAddresses: bigint;
}

export interface Difference {
  network: string;
  kind: "held" | "short" | "untracked" | "wallet-short" | "unreadable" | "nonce-taken" | "paid-after-failed";
  address: Address;
  contract: Address;
  symbol: string;
  /** In the token's units, for people. */
  message: string;
}

export interface Reconciliation {
  ranAt: string;
  networks: { network: string; block: string | null }[];
  /** Per network: which deposit addresses were read on chain. */
  coverage: Coverage[];
  tokens: TokenSummary[];
  differences: Difference[];
}

export const RECONCILIATION_STATE_KEY = "reconciliation";

/** The last run, for /api/health and `admin status`. */
export async function saveReconciliation(db: Db, result: Reconciliation): Promise<void> {
  const value = {
    ranAt: result.ranAt,
    differences: result.differences.length,
    networks: result.networks,
    coverage: result.coverage,
    details: result.differences.slice(0, 50).map((d) => `${d.network} ${d.kind} ${d.address}: ${d.message}`),
  };
  await db
    .insert(appState)
    .values({ key: RECONCILIATION_STATE_KEY, value })
    .onConflictDoUpdate({ target: appState.key, set: { value, updatedAt: new Date() } });
}

export interface LastReconciliation {
  ranAt: string;
  differences: number;
  details: string[];
}

export async function lastReconciliation(db: Db): Promise<LastReconciliation | null> {
  const [row] = await db.select().from(appState).where(eq(appState.key, RECONCILIATION_STATE_KEY));
  return row ? (row.value as LastReconciliation) : null;
}

/** The report an operator reads (and cron mails). */
export function formatReconciliation(r: Reconciliation): string[] {
  const lines = [
    `reconciliation at ${r.ranAt} (${r.networks.map((n) => `${n.network} up to block ${n.block ?? "none scanned"}`).join(", ")})`,
  ];
  for (const c of r.coverage) lines.push(coverageLine(c));
  for (const t of r.tokens) {
    const f = (u: bigint) => formatUnits(u, t.decimals);
    lines.push(
      `${t.network} ${t.symbol} ${t.contract}`,
      `  ledger: recorded ${f(t.recorded)}, forwarded ${f(t.forwarded)}, in flight ${f(t.inFlight)}, held ${f(t.held)}, below minimum ${f(t.belowMinimum)}`,
      `  chain:  deposit addresses hold ${f(t.onDepositAddresses)} (the ledger expects ${f(t.expectedOnDepositAddresses)})`,
    );
  }
  if (r.differences.length === 0) lines.push("no differences");
  else {
    lines.push(`${r.differences.length} difference(s):`);
    for (const d of r.differences) lines.push(`  ${d.kind.toUpperCase()} ${d.network} ${d.address} ${d.symbol}: ${d.message}`);
  }
  return lines;
}

function coverageLine(c: Coverage): string {
  const sample =
    c.sampleFrom === null
      ? "no rolling sample"
      : `${c.sampled} by the rolling sample (deposit indexes ${c.sampleFrom}–${c.sampleTo}${c.sampleWrapped ? ", the last ones: the next run starts again from the first" : ""})`;
  return `${c.network} deposit addresses read: ${c.addresses} — ${c.open} of open sessions, ${c.recent} with deposits in the last ${RECENT_DAYS} days, ${c.unforwarded} with unforwarded funds, ${sample}`;
}
