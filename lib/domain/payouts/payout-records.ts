/**
 * The one writer of payout batches' and items' status: it applies what payout-state.ts decides and
 * writes the webhook events of the change (payout.completed|failed, payout_batch.completed) in the
 * same transaction.
 */

import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { type PayoutBatch, type PayoutItem, payoutBatches, payoutItems } from "../../db/schema";
import type { NotificationEvent } from "../notifications/events";
import { notify } from "../notifications/outbox";
import { type BatchFact, decideBatch, decideItem, type ItemCounts, type ItemFact } from "./payout-state";
import { type TokenFacts, toBatchView, toItemView, tokenFacts } from "./payout-view";

export interface NewPayoutItem {
  position: number;
  toAddress: string;
  amount: bigint;
  reference: string | null;
}

/** Inserts a batch (`pending`, or `awaiting_approval`) and its items (`pending`). */
export async function insertPayoutBatch(
  tx: Db,
  batch: Omit<PayoutBatch, "status" | "reason" | "completedAt" | "createdAt" | "updatedAt" | "gasReserved"> & { gasReserved?: bigint },
  items: readonly NewPayoutItem[],
  awaitingApproval: boolean,
): Promise<PayoutBatch> {
  const inserted = requireRow(
    await tx
      .insert(payoutBatches)
      .values({ ...batch, status: awaitingApproval ? "awaiting_approval" : "pending" })
      .returning(),
    "insert into payout_batches",
  );
  for (let i = 0; i < items.length; i += 250) {
    await tx.insert(payoutItems).values(items.slice(i, i + 250).map((item) => ({ ...item, batchId: batch.id })));
  }
  return inserted;
}

/**
 * Applies `fact` to each of `items` (all of one batch); `at` fills in what the fact carries
 * (the chunk's ledger row and nonce when recorded, the paying hash when settled). Items the fact
 * does not apply to are left alone. Then the batch follows its items.
 */
export async function applyItemFacts(
  tx: Db,
  batch: PayoutBatch,
  changes: readonly { item: PayoutItem; fact: ItemFact }[],
  at: { chainTxId?: number; nonce?: number; txHash?: string | null } = {},
  now = new Date(),
): Promise<void> {
  const token = await tokenFacts(tx, batch.tokenId);
  const groups = new Map<string, { ids: number[]; from: PayoutItem["status"]; set: Partial<PayoutItem> }>();
  const events: NotificationEvent[] = [];
  for (const { item, fact } of changes) {
    const decision = decideItem(item.status, fact);
    if (!decision) continue;
    const final = decision.status === "completed" || decision.status === "failed";
    const set: Partial<PayoutItem> = {
      status: decision.status,
      failureReason: decision.failureReason,
      ...(at.chainTxId !== undefined ? { chainTxId: at.chainTxId } : {}),
      ...(at.nonce !== undefined ? { nonce: at.nonce } : {}),
      ...(at.txHash !== undefined ? { txHash: at.txHash } : {}),
      ...(final ? { completedAt: now } : {}),
    };
    const key = `${item.status}|${decision.status}|${decision.failureReason ?? ""}`;
    const group = groups.get(key) ?? { ids: [], from: item.status, set };
    group.ids.push(item.id);
    groups.set(key, group);
    if (decision.event) {
      const after = { ...item, ...set } as PayoutItem;
      events.push({
        domainId: batch.domainId,
        type: decision.event,
        orderKey: `payout:${batch.id}:${item.position}`,
        data: { ...toItemView(after, token), batchId: batch.id, domainId: batch.domainId, network: batch.network, token: token.symbol },
      });
    }
  }
  for (const group of groups.values()) {
    await tx
      .update(payoutItems)
      .set({ ...group.set, updatedAt: now })
      .where(and(inArray(payoutItems.id, group.ids), eq(payoutItems.status, group.from)));
  }
  await notify(tx, events, now);
  await followItems(tx, batch.id, token, now);
}

/** release / reject: the batch's own facts. Null when it was not awaiting approval. */
export async function applyBatchFact(
  tx: Db,
  batch: PayoutBatch,
  fact: Extract<BatchFact, { kind: "release" | "reject" }>,
  reason: string | null,
  now = new Date(),
): Promise<PayoutBatch | null> {
  const decision = decideBatch(batch.status, fact);
  if (!decision) return null;
  // A final batch signs nothing more: nothing of the day's gas budget stays held for it.
  const change = { status: decision.status, reason, updatedAt: now, ...(decision.final ? { completedAt: now, gasReserved: 0n } : {}) };
  const [updated] = await tx
    .update(payoutBatches)
    .set(change)
    .where(and(eq(payoutBatches.id, batch.id), eq(payoutBatches.status, batch.status)))
    .returning();
  if (!updated) return null;
  if (fact.kind === "reject") {
    const items = await tx.select().from(payoutItems).where(eq(payoutItems.batchId, batch.id));
    await applyItemFacts(
      tx,
      updated,
      items.map((item) => ({ item, fact: { kind: "batch-rejected" } as const })),
      {},
      now,
    );
  }
  return updated;
}

/** The batch's status from its items' (sending once any item left pending, final once all are). */
async function followItems(tx: Db, batchId: string, token: TokenFacts, now: Date): Promise<void> {
  const [batch] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, batchId)).for("no key update");
  if (!batch) return;
  const rows = await tx
    .select({ status: payoutItems.status, n: sql<number>`count(*)::int` })
    .from(payoutItems)
    .where(eq(payoutItems.batchId, batchId))
    .groupBy(payoutItems.status);
  const counts: ItemCounts = { pending: 0, sending: 0, completed: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  const decision = decideBatch(batch.status, { kind: "items", counts });
  if (!decision) return;
  const change = { status: decision.status, updatedAt: now, ...(decision.final ? { completedAt: now, gasReserved: 0n } : {}) };
  const [updated] = await tx
    .update(payoutBatches)
    .set(change)
    .where(and(eq(payoutBatches.id, batchId), eq(payoutBatches.status, batch.status)))
    .returning();
  if (updated && decision.event) {
    const items = await tx.select().from(payoutItems).where(eq(payoutItems.batchId, batchId));
    const { items: _items, ...view } = toBatchView(updated, token, items);
    await notify(tx, [{ domainId: updated.domainId, type: decision.event, orderKey: `payout_batch:${batchId}`, data: view }], now);
  }
}
