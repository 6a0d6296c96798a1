import { and, eq, ne } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { gasTankGeneration } from "../chain/keys";
import { publicClientFor } from "../chain/networks";
import { receiptOf } from "../chain/transactions";
import type { Db } from "../db";
import { type ChainTransaction, chainTransactions, type SweepBatch, sweepBatches } from "../db/schema";
import type { GasChargeShare } from "../ledger/charges";
import { recordTransaction } from "../ledger/record";
import { settleNonce } from "../ledger/settle";
import { log } from "../log";

/**
 * The gas tank's transactions of batched sweeping (`sweep_batches`: batches, the contracts'
 * deployments) are ledger rows: the ledger sends them again, re-prices one that is stuck at the
 * tank's next nonce, fills the nonce of one a node refuses for good, and settles each by receipt.
 * This file reads that outcome for a batch or a deployment. A batch whose nonce went to a cancel
 * (refused for good) counts as refused; after MAX_REFUSED_BATCHES of them a process sweeps that
 * network the classic way.
 */
export const MAX_REFUSED_BATCHES = 2;

const REFUSED_KEY = Symbol.for("bsc-pay.refused-batches");
function refusedByNetwork(): Map<string, Set<number>> {
  const holder = globalThis as { [REFUSED_KEY]?: Map<string, Set<number>> };
  holder[REFUSED_KEY] ??= new Map();
  return holder[REFUSED_KEY];
}

/** Sweep batches of `network` whose nonce had to be filled, seen by this process since it started. */
export function refusedBatches(network: string): number {
  return refusedByNetwork().get(network)?.size ?? 0;
}

/** Tests: a fresh process. */
export function forgetRefusedBatches(): void {
  refusedByNetwork().clear();
}

export type SettledTransaction =
  | { status: "sent" }
  | { status: "mined" | "reverted"; receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>>; winner: ChainTransaction }
  | { status: "replaced" };

/** Records the signed transaction of a batch or deployment in the ledger; call inside the transaction that took its nonce. */
export async function recordTankTransaction(
  tx: Db,
  network: string,
  tank: Address,
  kind: "batch" | "deploy",
  raw: Hex,
  chargedTo: readonly GasChargeShare[] = [],
): Promise<ChainTransaction> {
  return recordTransaction(tx, { network, walletRole: "gas_tank", walletIndex: gasTankGeneration(), wallet: tank, kind, raw, chargedTo });
}

/**
 * Where a batch or deployment stands, as the ledger settles its nonce: mined or reverted (with the
 * receipt of whichever of its copies was mined), replaced (its nonce went to a cancel or a
 * transaction we did not sign), or still on its way. Rows other than batches are updated here; a
 * batch by its caller, together with its forwards.
 */
export async function settleTankTransaction(db: Db, row: SweepBatch): Promise<SettledTransaction> {
  if (row.chainTxId === null) return { status: "sent" };
  const [ledgerRow] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, row.chainTxId));
  if (!ledgerRow) throw new Error(`sweep batch ${row.id} has no ledger row`);
  const outcome = await settleNonce(db, ledgerRow);
  if (outcome.state === "open") return { status: "sent" };
  if (outcome.state === "settled" && outcome.winner.kind === ledgerRow.kind) {
    const receipt = await receiptOf(publicClientFor(row.network), outcome.winner.txHash as Hex);
    if (!receipt) return { status: "sent" }; // settled from a receipt a moment ago: a lagging node; ask again
    const status = outcome.winner.status === "mined" ? "mined" : "reverted";
    if (row.kind !== "sweep") {
      await markTankTransaction(db, row.id, { status, gasUsed: receipt.gasUsed, minedAt: new Date() });
      if (status === "reverted")
        log.error(
          { network: row.network, txHash: outcome.winner.txHash, kind: row.kind },
          "a gas-tank transaction of batched sweeping reverted",
        );
    }
    return { status, receipt, winner: outcome.winner };
  }
  if (row.kind === "sweep" && outcome.state === "settled" && outcome.winner.kind === "cancel") {
    const refused = refusedByNetwork().get(row.network) ?? new Set<number>();
    refused.add(row.id);
    refusedByNetwork().set(row.network, refused);
    log.warn(
      { network: row.network, batchId: row.id, refused: refused.size },
      "a sweep batch was refused; its nonce was filled and its forwards batch again",
    );
  }
  if (row.kind !== "sweep") await markTankTransaction(db, row.id, { status: "replaced" });
  return { status: "replaced" };
}

/** Settles the open rows that no forward drives (deployments), so their outcome is recorded. */
export async function settleOpenTankTransactions(db: Db, network?: string): Promise<void> {
  const open = await db
    .select()
    .from(sweepBatches)
    .where(and(network ? eq(sweepBatches.network, network) : undefined, ne(sweepBatches.kind, "sweep"), eq(sweepBatches.status, "sent")));
  for (const row of open) await settleTankTransaction(db, row);
}

async function markTankTransaction(
  db: Db,
  id: number,
  fields: Partial<Pick<SweepBatch, "status" | "gasUsed" | "minedAt" | "lastError">>,
): Promise<void> {
  await db
    .update(sweepBatches)
    .set({ ...fields, updatedAt: new Date() })
    .where(and(eq(sweepBatches.id, id), eq(sweepBatches.status, "sent")));
}
