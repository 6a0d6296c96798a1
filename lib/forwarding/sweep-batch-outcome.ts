import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { decodeEventLog, type Hex } from "viem";
import { publicClientFor } from "../chain/networks";
import { receiptOf } from "../chain/transactions";
import type { Db } from "../db";
import { chainTransactions, forwards, type SweepBatch, sweepBatches } from "../db/schema";
import { log } from "../log";
import { lockDepositAddresses, planForwards } from "./forward-plan";
import { after } from "./forward-records";
import { batchSweeperAbi } from "./sweep-contracts";
import type { SettledTransaction } from "./tank-transactions";

/**
 * Applies a settled batch to its forwards, in one transaction with the batch row (so a crash
 * leaves either both or neither): entries whose Swept says ok are completed, and what arrived at
 * their addresses meanwhile is planned; the others go back to pending for the classic path. A
 * replaced batch (its nonce went to another transaction) moved nothing: its forwards batch again.
 */
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
  const status = settled.status;
  if (status === "sent" || ((status === "mined" || status === "reverted") && !receipt)) return;

  await db.transaction(async (tx) => {
    await tx.select({ id: sweepBatches.id }).from(sweepBatches).where(eq(sweepBatches.id, batch.id)).for("update");
    const inBatch = and(eq(forwards.batchId, batch.id), eq(forwards.status, "batched"));
    const addresses = (await tx.select({ address: forwards.fromAddress }).from(forwards).where(inBatch)).map((m) => m.address);
    // The planner's lock order: the sessions of the addresses, then their forward rows by id.
    await lockDepositAddresses(tx, batch.network, addresses);
    const members = await tx.select().from(forwards).where(inBatch).orderBy(asc(forwards.id)).for("update");
    const stillBatched = (id: number) => and(eq(forwards.id, id), eq(forwards.status, "batched"), eq(forwards.batchId, batch.id));
    const backToPending = (reason: string, classicOnly: boolean) => ({
      status: "pending" as const,
      batchId: null,
      batchIndex: null,
      sweepTxHash: null,
      classicOnly,
      attempts: sql`${forwards.attempts} + 1`,
      lastError: reason.slice(0, 500),
      nextAttemptAt: after(1),
      updatedAt: new Date(),
    });

    if (status === "mined") {
      const swept = sweptEntries(receipt!.logs, receipt!.to ?? "");
      const share = receipt!.gasUsed / BigInt(Math.max(1, batch.size));
      const completed: string[] = [];
      for (const member of members) {
        if (swept.get(member.batchIndex ?? -1) === true) {
          await tx
            .update(forwards)
            .set({
              status: "completed",
              sweepTxHash: minedHash,
              gasUsed: share,
              completedAt: new Date(),
              lastError: null,
              updatedAt: new Date(),
            })
            .where(stillBatched(member.id));
          completed.push(member.fromAddress);
        } else {
          await tx
            .update(forwards)
            .set(backToPending(`its entry in batch ${batch.txHash} failed; sweeping it the classic way`, true))
            .where(stillBatched(member.id));
        }
      }
      await planForwards(tx, batch.network, completed);
      if (completed.length < members.length)
        log.warn(
          { batchId: batch.id, failed: members.length - completed.length },
          "batch entries failed; they fall back to classic sweeps",
        );
    } else if (status === "reverted") {
      for (const member of members) {
        // Not counted as the token's revert: the classic path's own reverts decide whether to hold it.
        await tx
          .update(forwards)
          .set(backToPending(`batch ${batch.txHash} reverted; sweeping it the classic way`, true))
          .where(stillBatched(member.id));
      }
      log.error({ batchId: batch.id, txHash: batch.txHash }, "sweep batch reverted; its forwards fall back to classic sweeps");
    } else {
      for (const member of members)
        await tx
          .update(forwards)
          .set(backToPending(`batch ${batch.txHash} was replaced (its nonce went to another transaction); batching again`, false))
          .where(stillBatched(member.id));
    }
    await tx
      .update(sweepBatches)
      .set({ status, gasUsed: receipt?.gasUsed ?? null, minedAt: receipt ? new Date() : null, updatedAt: new Date() })
      .where(and(eq(sweepBatches.id, batch.id), eq(sweepBatches.status, "sent")));
  });
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
