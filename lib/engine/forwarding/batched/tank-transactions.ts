/**
 * The gas tank's transactions of batched sweeping (`sweep_batches`: batches, the contracts'
 * deployments) are ledger rows: the ledger sends them again, re-prices one that is stuck at the
 * tank's next nonce, fills the nonce of one a node refuses for good, and settles each by receipt.
 * This file reads that outcome for a batch or a deployment, and writes a deployment's outcome (a
 * batch's is written with its forwards, by sweep-batch-outcome.ts); both as batch-state.ts decides.
 */

import { and, eq, ne } from "drizzle-orm";
import type { Hex } from "viem";
import { log } from "../../../base/log";
import type { Db } from "../../../db";
import { type ChainTransaction, chainTransactions, type SweepBatch, sweepBatches } from "../../../db/schema/engine";
import { publicClientFor } from "../../chain/networks";
import { receiptOf } from "../../chain/transactions";
import { rereadsPending, settleNonce } from "../../ledger/settle";
import { type BatchDecision, type BatchFact, decideBatch } from "./batch-state";
import { recordNetworkFact } from "./network-batching";

export type SettledTransaction =
  | { status: "sent" }
  | { status: "mined" | "reverted"; receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>>; winner: ChainTransaction }
  /** `refused`: its nonce went to the ledger's own filler after the node refused it for good. */
  | { status: "replaced"; refused: boolean };

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
  // Taken by another while its receipts are still read again: a late receipt may yet show it mined.
  if (outcome.state === "open" || rereadsPending(outcome)) return { status: "sent" };
  if (outcome.state === "settled" && outcome.winner.kind === ledgerRow.kind) {
    const receipt = await receiptOf(publicClientFor(row.network), outcome.winner.txHash as Hex);
    if (!receipt) return { status: "sent" }; // settled from a receipt a moment ago: a lagging node; ask again
    const settled = { status: outcome.winner.status === "mined" ? "mined" : "reverted", receipt, winner: outcome.winner } as const;
    if (row.kind !== "sweep") await recordDeploymentOutcome(db, row, factOf(settled));
    return settled;
  }
  const settled = { status: "replaced", refused: outcome.state === "settled" && outcome.winner.kind === "cancel" } as const;
  if (row.kind !== "sweep") await recordDeploymentOutcome(db, row, factOf(settled));
  return settled;
}

/** The batch decider's fact for a settled transaction (the Swept flags come from its receipt: see sweep-batch-outcome.ts). */
export function factOf(settled: SettledTransaction, swept: ReadonlyMap<number, boolean> = new Map()): BatchFact {
  if (settled.status === "sent") return { kind: "open" };
  if (settled.status === "replaced") return { kind: "replaced", refused: settled.refused };
  if (settled.status === "reverted") return { kind: "reverted", gasUsed: settled.receipt.gasUsed };
  return { kind: "mined", gasUsed: settled.receipt.gasUsed, swept };
}

/**
 * Writes the batch row's outcome as decided, once (only a row still `sent` takes it), and what the
 * outcome means for the network: a batch the node refused for good is counted. Call it inside the
 * transaction that applies the outcome to the batch's forwards. Returns whether this call wrote it.
 */
export async function recordBatchOutcome(tx: Db, batch: SweepBatch, decision: BatchDecision): Promise<boolean> {
  if (!decision.next) return false;
  const written = await tx
    .update(sweepBatches)
    .set({ ...decision.next, updatedAt: new Date() })
    .where(and(eq(sweepBatches.id, batch.id), eq(sweepBatches.status, "sent")))
    .returning({ id: sweepBatches.id });
  if (written.length === 0) return false;
  for (const event of decision.events) {
    if (event.type === "refused") {
      const network = await recordNetworkFact(tx, batch.network, { kind: "batch-refused" });
      log.warn(
        { network: batch.network, batchId: batch.id, refused: network.refusedBatches },
        "a sweep batch was refused; its nonce was filled and its forwards batch again",
      );
    }
  }
  return true;
}

async function recordDeploymentOutcome(db: Db, row: SweepBatch, fact: BatchFact): Promise<void> {
  const decision = decideBatch({ status: row.status, kind: row.kind, size: row.size, txHash: row.txHash }, fact, [], new Date());
  const written = await recordBatchOutcome(db, row, decision);
  if (written && decision.next?.status === "reverted") {
    log.error({ network: row.network, txHash: row.txHash, kind: row.kind }, "a gas-tank transaction of batched sweeping reverted");
  }
}

/** Settles the open rows that no forward drives (deployments), so their outcome is recorded. */
export async function settleOpenTankTransactions(db: Db, network?: string): Promise<void> {
  const open = await db
    .select()
    .from(sweepBatches)
    .where(and(network ? eq(sweepBatches.network, network) : undefined, ne(sweepBatches.kind, "sweep"), eq(sweepBatches.status, "sent")));
  for (const row of open) await settleTankTransaction(db, row);
}
