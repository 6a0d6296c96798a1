/**
 * The payouts pages' loaders (like every area's, one per page, opening the database themselves) and a
 * batch's items as CSV. A batch holds at most 500 items: the CSV is built at once, not streamed.
 */

import { getDb } from "../../../db";
import type { KeysetQuery } from "../../../db/keyset";
import { listDomains } from "../../../domain/merchant-domains/manage-domains";
import { listAccountPayoutBatches } from "../../../domain/payouts/account-batches";
import { getPayoutBatch, type PayoutBatchView } from "../../../domain/payouts/payout-view";
import { listTokens } from "../../../domain/tokens/list-tokens";
import { isNativeToken } from "../../../engine/chain/native";
import { csvLine } from "../shared/csv";
import { explorerTxUrl } from "../shared/explorer";

/** `/dashboard/payouts`: a page of the account's batches, and the domains and tokens the new-payout form offers. */
export async function loadPayoutsPage(accountId: number, query: KeysetQuery) {
  const db = await getDb();
  const [page, domains, tokens] = await Promise.all([
    listAccountPayoutBatches(db, accountId, query),
    listDomains(db, accountId),
    listTokens(db, accountId),
  ]);
  // Native BNB is not paid out in batches (BatchPayer moves BEP-20 tokens).
  return { page, domains, tokens: tokens.filter((t) => !isNativeToken(t.contractAddress)) };
}

export type PayoutItemRow = PayoutBatchView["items"][number] & { txUrl: string | null };

/** `/dashboard/payouts/<batchId>`: the batch with its items (NOT_FOUND when it is not the account's). */
export async function loadPayoutBatchPage(accountId: number, batchId: string): Promise<PayoutBatchView & { items: PayoutItemRow[] }> {
  const batch = await getPayoutBatch(await getDb(), { userId: accountId }, batchId);
  return {
    ...batch,
    items: batch.items.map((item) => ({ ...item, txUrl: item.txHash ? explorerTxUrl(batch.network, item.txHash) : null })),
  };
}

export const PAYOUT_ITEM_CSV_COLUMNS = [
  "row",
  "toAddress",
  "amount",
  "token",
  "reference",
  "status",
  "txHash",
  "failureReason",
  "completedAt",
] as const;

/** `/dashboard/payouts/<batchId>/export`: the batch's items as CSV text (NOT_FOUND when it is not the account's). */
export async function payoutItemsCsv(accountId: number, batchId: string): Promise<string> {
  const batch = await getPayoutBatch(await getDb(), { userId: accountId }, batchId);
  let text = csvLine([...PAYOUT_ITEM_CSV_COLUMNS]);
  for (const item of batch.items)
    text += csvLine([
      item.index + 1,
      item.toAddress,
      item.amount,
      batch.token,
      item.reference,
      item.status,
      item.txHash,
      item.failureReason,
      item.completedAt,
    ]);
  return text;
}
