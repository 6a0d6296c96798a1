/**
 * Applies a settled batch to its forwards, in one transaction with the batch row (so a crash
 * leaves either both or neither), as batch-state.ts decides: entries whose Swept says ok are
 * completed, and what arrived at their addresses meanwhile is planned; the others go back to
 * pending for the classic path. A replaced batch (its nonce went to another transaction) moved
 * nothing: its forwards batch again.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import { decodeEventLog, type Hex } from "viem";
import { log } from "../../../base/log";
import type { Db } from "../../../db";
import { chainTransactions, type Forward, forwards, type SweepBatch, sweepBatches } from "../../../db/schema/engine";
import { publicClientFor } from "../../chain/networks";
import { receiptOf } from "../../chain/transactions";
import { lockDepositAddresses, planForwards } from "../forward-plan";
import { applyToLocked } from "../forward-records";
import { type BatchFact, decideBatch } from "./batch-state";
import { batchSweeperAbi } from "./batch-support";
import { recordBatchOutcome, type SettledTransaction } from "./tank-transactions";

/** A settled batch, applied to its forwards and its own row in one transaction. */
export async function completeBatch(
  db: Db,
  batch: SweepBatch,
  settled: SettledTransaction | { status: SweepBatch["status"] },
): Promise<void> {
  let receipt = "receipt" in settled ? settled.receipt : null;
  // The hash that was mined: the batch's own, or its re-priced copy's (the ledger's winner).
  let minedHash = "winner" in settled ? settled.winner.txHash : batch.txHash;
  if (!receipt && (settled.status === "mined" || settled.status === "reverted")) {
    minedHash = (await minedCopy(db, batch)) ?? batch.txHash;
    receipt = await receiptOf(publicClientFor(batch.network), minedHash as Hex);
  }
  let fact: BatchFact;
  if (settled.status === "replaced") fact = { kind: "replaced", refused: "refused" in settled && settled.refused };
  else if (settled.status === "sent" || !receipt) return;
  else if (settled.status === "reverted") fact = { kind: "reverted", gasUsed: receipt.gasUsed };
  else fact = { kind: "mined", gasUsed: receipt.gasUsed, swept: sweptEntries(receipt.logs, receipt.to ?? "") };

  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(sweepBatches).where(eq(sweepBatches.id, batch.id)).for("update");
    if (!current) return;
    const inBatch = and(eq(forwards.batchId, batch.id), eq(forwards.status, "batched"));
    const addresses = (await tx.select({ address: forwards.fromAddress }).from(forwards).where(inBatch)).map((m) => m.address);
    // The planner's lock order: the sessions of the addresses, then their forward rows by id.
    await lockDepositAddresses(tx, batch.network, addresses);
    const members = await tx.select().from(forwards).where(inBatch).orderBy(asc(forwards.id)).for("update");
    const state = { status: current.status, kind: current.kind, size: current.size, txHash: current.txHash };
    const decision = decideBatch(state, fact, members.map(entryIndex), new Date());
    const learnt = new Map(decision.entries.map((e) => [e.index, e.fact]));
    const completed: string[] = [];
    for (const member of members) {
      const entryFact = learnt.get(entryIndex(member));
      if (!entryFact) continue;
      const applied = await applyToLocked(tx, member, entryFact, entryFact.kind === "swept" ? { record: { sweepTxHash: minedHash } } : {});
      if (applied.events.some((e) => e.type === "completed")) completed.push(member.fromAddress);
    }
    await planForwards(tx, batch.network, completed);
    await recordBatchOutcome(tx, current, decision);
    for (const event of decision.events) {
      if (event.type === "entries-failed")
        log.warn({ batchId: batch.id, failed: event.count }, "batch entries failed; they fall back to classic sweeps");
      if (event.type === "reverted")
        log.error({ batchId: batch.id, txHash: batch.txHash }, "sweep batch reverted; its forwards fall back to classic sweeps");
    }
  });
}

/** An entry's index in its batch (a row without one matches no Swept event: its entry counts as failed). */
function entryIndex(forward: Forward): number {
  return forward.batchIndex ?? -1;
}

/** Swept(index, from, token, to, amount, ok) of the sweeper itself, by entry index. */
export function sweptEntries(
  logs: readonly { address: string; data: Hex; topics: readonly Hex[] }[],
  sweeper: string,
): Map<number, boolean> {
  const found = new Map<number, boolean>();
  for (const entry of logs) {
    // A token could emit a look-alike event from its own address inside the batch: only ours counts.
    if (entry.address.toLowerCase() !== sweeper.toLowerCase()) continue;
    try {
      const event = decodeEventLog({ abi: batchSweeperAbi, data: entry.data, topics: entry.topics as [Hex, ...Hex[]] });
      if (event.eventName !== "Swept") continue;
      const args = event.args as unknown as { index: bigint; ok: boolean };
      found.set(Number(args.index), args.ok);
    } catch {
      // not a Swept event
    }
  }
  return found;
}

/** The hash of the batch's copy the ledger settled as mined (a re-priced one has its own). */
async function minedCopy(db: Db, batch: SweepBatch): Promise<string | null> {
  if (batch.chainTxId === null) return null;
  const [own] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, batch.chainTxId));
  if (!own) return null;
  const [winner] = await db
    .select({ txHash: chainTransactions.txHash })
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, own.network),
        eq(chainTransactions.wallet, own.wallet),
        eq(chainTransactions.nonce, own.nonce),
        inArray(chainTransactions.status, ["mined", "reverted"]),
      ),
    );
  return winner?.txHash ?? null;
}
