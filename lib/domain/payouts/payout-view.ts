/** A payout batch and its items as the API shows them (GET /api/v1/payouts/:batchId, webhooks). */

import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { formatAmount } from "../../base/money";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { type PayoutBatch, type PayoutItem, payoutBatches, payoutItems, tokens } from "../../db/schema";
import { payoutBatchRefusal } from "./reasons";

export interface TokenFacts {
  symbol: string;
  decimals: number;
}

export interface PayoutItemView {
  index: number;
  toAddress: string;
  amount: string;
  reference: string | null;
  status: PayoutItem["status"];
  txHash: string | null;
  failureReason: string | null;
  completedAt: string | null;
}

export interface PayoutBatchView {
  batchId: string;
  status: PayoutBatch["status"];
  domainId: number;
  tokenId: number;
  token: string;
  network: string;
  fromAddress: string;
  total: string;
  itemCount: number;
  counts: { pending: number; sending: number; completed: number; failed: number };
  reason: string | null;
  createdAt: string;
  completedAt: string | null;
  items: PayoutItemView[];
}

export function toItemView(item: PayoutItem, token: TokenFacts): PayoutItemView {
  return {
    index: item.position,
    toAddress: item.toAddress,
    amount: formatAmount(item.amount, token.decimals),
    reference: item.reference,
    status: item.status,
    txHash: item.txHash,
    failureReason: item.failureReason,
    completedAt: item.completedAt?.toISOString() ?? null,
  };
}

export function toBatchView(batch: PayoutBatch, token: TokenFacts, items: PayoutItem[]): PayoutBatchView {
  const counts = { pending: 0, sending: 0, completed: 0, failed: 0 };
  for (const item of items) counts[item.status]++;
  return {
    batchId: batch.id,
    status: batch.status,
    domainId: batch.domainId,
    tokenId: batch.tokenId,
    token: token.symbol,
    network: batch.network,
    fromAddress: batch.fromAddress,
    total: formatAmount(batch.total, token.decimals),
    itemCount: batch.itemCount,
    counts,
    reason: batch.reason,
    createdAt: batch.createdAt.toISOString(),
    completedAt: batch.completedAt?.toISOString() ?? null,
    items: items.map((item) => toItemView(item, token)),
  };
}

export async function tokenFacts(db: Db, tokenId: number): Promise<TokenFacts> {
  const [token] = await db.select({ symbol: tokens.symbol, decimals: tokens.decimals }).from(tokens).where(eq(tokens.id, tokenId));
  if (!token) throw new Error(`token ${tokenId} not found`);
  return token;
}

/** The batch with its items; NOT_FOUND when it is not `owner`'s (another API key's batch does not exist for this one). */
export async function getPayoutBatch(
  db: Db,
  owner: { apiKeyId: number } | { userId: number } | null,
  batchId: string,
): Promise<PayoutBatchView> {
  const notFound = () => payoutBatchRefusal("NOT_FOUND", "payout-batch-not-found", `payout batch ${batchId} not found`);
  if (!isUuid(batchId)) throw notFound();
  const ownerMatch =
    owner === null ? undefined : "apiKeyId" in owner ? eq(payoutBatches.apiKeyId, owner.apiKeyId) : eq(payoutBatches.userId, owner.userId);
  const [batch] = await db
    .select()
    .from(payoutBatches)
    .where(and(eq(payoutBatches.id, batchId.toLowerCase()), ownerMatch));
  if (!batch) throw notFound();
  const items = await db.select().from(payoutItems).where(eq(payoutItems.batchId, batch.id)).orderBy(asc(payoutItems.position));
  return toBatchView(batch, await tokenFacts(db, batch.tokenId), items);
}

/** The key's batches, newest first, without their items; keyset cursor = the last batch's id. */
export async function listPayoutBatches(
  db: Db,
  apiKeyId: number,
  options: { limit: number; cursor?: string },
): Promise<{ items: Omit<PayoutBatchView, "items">[]; nextCursor: string | null }> {
  let after: PayoutBatch | undefined;
  if (options.cursor) [after] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, options.cursor));
  const rows = await db
    .select()
    .from(payoutBatches)
    .where(
      and(
        eq(payoutBatches.apiKeyId, apiKeyId),
        after
          ? // The cursor batch's own time, read in SQL: a JS Date keeps milliseconds, the column microseconds.
            sql`(${payoutBatches.createdAt}, ${payoutBatches.id}) < (select b.created_at, b.id from payout_batches b where b.id = ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(sql`${payoutBatches.createdAt} desc, ${payoutBatches.id} desc`)
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const views = await batchSummaries(db, page);
  return { items: views, nextCursor: rows.length > options.limit ? (page.at(-1)?.id ?? null) : null };
}

/** Batches as lists show them: without their items, with each status's count of items. */
export async function batchSummaries(db: Db, page: PayoutBatch[]): Promise<Omit<PayoutBatchView, "items">[]> {
  // Counts per batch and status (index-backed), not the items themselves: a page of 100 batches may hold 50,000.
  const tallies =
    page.length === 0
      ? []
      : await db
          .select({ batchId: payoutItems.batchId, status: payoutItems.status, n: sql<number>`count(*)::int` })
          .from(payoutItems)
          .where(
            inArray(
              payoutItems.batchId,
              page.map((b) => b.id),
            ),
          )
          .groupBy(payoutItems.batchId, payoutItems.status);
  const facts = new Map<number, TokenFacts>();
  const views = [];
  for (const batch of page) {
    const token = facts.get(batch.tokenId) ?? (await tokenFacts(db, batch.tokenId));
    facts.set(batch.tokenId, token);
    const { items: _items, ...view } = toBatchView(batch, token, []);
    for (const t of tallies) if (t.batchId === batch.id) view.counts[t.status] = Number(t.n);
    views.push(view);
  }
  return views;
}
