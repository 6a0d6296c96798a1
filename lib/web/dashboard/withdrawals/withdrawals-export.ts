/**
 * The dashboard's CSV of withdrawals: every withdrawal of the merchant (or of one status), newest
 * first, as the withdrawals page lists them, streamed in chunks. A merchant sends far fewer
 * withdrawals than it takes payments, so both drivers read short keyset batches bounded by the
 * `(user_id, created_at)` index, the bound carried as microsecond text (lib/base/cursor.ts: a JS
 * Date would skip or repeat withdrawals created within the same millisecond).
 */

import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { KEYSET_TIME_FORMAT } from "../../../base/cursor";
import type { Db } from "../../../db";
import { domains, tokens, type WithdrawalStatus, withdrawals } from "../../../db/schema";
import { toWithdrawalView } from "../../../domain/withdrawals/withdrawal-view";
import { csvLine } from "../shared/csv";

export const WITHDRAWAL_CSV_COLUMNS = [
  "withdrawalId",
  "createdAt",
  "status",
  "amount",
  "token",
  "network",
  "domain",
  "source",
  "fromAddress",
  "toAddress",
  "txHash",
  "confirmedAt",
  "failureReason",
  "refundId",
] as const;

export type WithdrawalCsvRow = Record<(typeof WITHDRAWAL_CSV_COLUMNS)[number], string | null>;

const EXPORT_BATCH = 5000;

/** The withdrawals as CSV bytes: the header at once, then one chunk per batch. */
export function withdrawalsCsvStream(
  db: Db,
  userId: number,
  filters: { status?: WithdrawalStatus },
  batch = EXPORT_BATCH,
): ReadableStream<Uint8Array> {
  const batches = withdrawalExportBatches(db, userId, filters, batch);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine([...WITHDRAWAL_CSV_COLUMNS])));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) controller.close();
      else {
        let text = "";
        for (const row of next.value) text += csvLine(WITHDRAWAL_CSV_COLUMNS.map((column) => row[column]));
        controller.enqueue(encoder.encode(text));
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

export async function* withdrawalExportBatches(
  db: Db,
  userId: number,
  filters: { status?: WithdrawalStatus },
  batch = EXPORT_BATCH,
): AsyncGenerator<WithdrawalCsvRow[]> {
  const where = and(eq(withdrawals.userId, userId), filters.status ? eq(withdrawals.status, filters.status) : undefined);
  let after: { time: string; id: string } | null = null;
  for (;;) {
    const bound: SQL | undefined = after
      ? sql`(${withdrawals.createdAt}, ${withdrawals.id}) < (${after.time}::timestamptz, ${after.id}::uuid)`
      : undefined;
    const rows = await db
      .select({
        withdrawal: withdrawals,
        token: { symbol: tokens.symbol, decimals: tokens.decimals },
        domain: domains.origin,
        keysetTime: sql<string>`to_char(${withdrawals.createdAt} at time zone 'UTC', ${KEYSET_TIME_FORMAT})`,
      })
      .from(withdrawals)
      .innerJoin(tokens, eq(tokens.id, withdrawals.tokenId))
      .innerJoin(domains, eq(domains.id, withdrawals.domainId))
      .where(and(where, bound))
      .orderBy(desc(withdrawals.createdAt), desc(withdrawals.id))
      .limit(batch);
    if (rows.length > 0) {
      yield rows.map(({ withdrawal, token, domain }): WithdrawalCsvRow => {
        const view = toWithdrawalView(withdrawal, token);
        return {
          withdrawalId: view.withdrawalId,
          createdAt: view.createdAt,
          status: view.status,
          amount: view.amount,
          token: view.token,
          network: withdrawal.network,
          domain,
          source: withdrawal.apiKeyId === null ? "dashboard" : "api",
          fromAddress: view.fromAddress,
          toAddress: view.toAddress,
          txHash: view.txHash,
          confirmedAt: view.confirmedAt,
          failureReason: view.failureReason,
          refundId: view.refundId,
        };
      });
    }
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    after = { time: last.keysetTime, id: last.withdrawal.id };
  }
}
