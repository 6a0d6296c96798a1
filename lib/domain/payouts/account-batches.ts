/**
 * The dashboard's list of an account's payout batches, from every API key and the dashboard,
 * newest first, one page by keyset cursor over (user_id, created_at desc, id desc) like the
 * withdrawals list (docs/design.md §25).
 */

import { and, eq } from "drizzle-orm";
import type { Db } from "../../db";
import { type KeysetPage, type KeysetQuery, keysetBounds, reachedNewest } from "../../db/keyset";
import { domains, payoutBatches } from "../../db/schema";
import { batchSummaries, type PayoutBatchView } from "./payout-view";

export type AccountPayoutBatch = Omit<PayoutBatchView, "items"> & { source: "api" | "dashboard"; domain: string };

/** One page of the account's batches. A cursor that is not one we handed out is a VALIDATION_ERROR. */
export async function listAccountPayoutBatches(db: Db, accountId: number, query: KeysetQuery): Promise<KeysetPage<AccountPayoutBatch>> {
  const keyset = keysetBounds({ createdAt: payoutBatches.createdAt, id: payoutBatches.id }, query);
  const rows = await db
    .select({ batch: payoutBatches, domain: domains.origin, cursorTime: keyset.cursorTime })
    .from(payoutBatches)
    .innerJoin(domains, eq(domains.id, payoutBatches.domainId))
    .where(and(eq(payoutBatches.userId, accountId), keyset.where))
    .orderBy(...keyset.orderBy)
    .limit(keyset.limit);
  const page = keyset.pageOf(rows, (r) => ({ createdAt: r.cursorTime, id: r.batch.id }));
  // Newer from an older page once the newest ones are reached: show the newest full page.
  if (reachedNewest(query, page)) return listAccountPayoutBatches(db, accountId, { limit: query.limit });
  const summaries = await batchSummaries(
    db,
    page.items.map((r) => r.batch),
  );
  return {
    ...page,
    items: summaries.map((view, i) => ({
      ...view,
      source: page.items[i]?.batch.apiKeyId === null ? ("dashboard" as const) : ("api" as const),
      domain: page.items[i]?.domain ?? "",
    })),
  };
}
