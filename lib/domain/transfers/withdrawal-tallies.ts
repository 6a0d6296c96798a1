/**
 * The counters of withdrawals per API key (null: the dashboard) and status
 * (lib/db/schema/payments/history-counts.ts), moved in the transaction that inserts a withdrawal
 * (record-transfer.ts) or settles it (lib/domain/withdrawals/withdrawal-records.ts): the history's
 * `meta.total` reads them instead of counting withdrawals. Here, below both, because withdrawals
 * import payouts and not the other way round.
 */
import { and, eq, sql, sum } from "drizzle-orm";
import type { Db } from "../../db";
import { type Withdrawal, type WithdrawalStatus, withdrawalCounts } from "../../db/schema";
import { countSlot, summedDeltas } from "../../db/slots";

type TalliedWithdrawal = Pick<Withdrawal, "userId" | "apiKeyId" | "status">;

/** `before` null: the withdrawal was just inserted. */
export async function tallyWithdrawalMove(tx: Db, before: TalliedWithdrawal | null, after: TalliedWithdrawal): Promise<void> {
  if (before?.status === after.status) return;
  const entry = (w: TalliedWithdrawal, delta: bigint) => ({
    key: `${String(w.userId).padStart(12, "0")}|${w.apiKeyId === null ? "-" : String(w.apiKeyId).padStart(12, "0")}|${w.status}`,
    row: { userId: w.userId, apiKeyId: w.apiKeyId, status: w.status },
    delta,
  });
  const counts = summedDeltas([...(before ? [entry(before, -1n)] : []), entry(after, 1n)]);
  const slot = countSlot();
  await tx
    .insert(withdrawalCounts)
    .values(counts.map(({ row, delta }) => ({ ...row, slot, withdrawals: Number(delta) })))
    .onConflictDoUpdate({
      target: [withdrawalCounts.userId, withdrawalCounts.apiKeyId, withdrawalCounts.status, withdrawalCounts.slot],
      set: { withdrawals: sql`${withdrawalCounts.withdrawals} + excluded.withdrawals` },
    });
}

/** How many withdrawals an API key (or a user: every key and the dashboard) has sent, in `status` or in all. */
export async function withdrawalTotal(
  db: Db,
  owner: { apiKeyId: number } | { userId: number },
  status?: WithdrawalStatus,
): Promise<number> {
  const [row] = await db
    .select({ n: sum(withdrawalCounts.withdrawals) })
    .from(withdrawalCounts)
    .where(
      and(
        "apiKeyId" in owner ? eq(withdrawalCounts.apiKeyId, owner.apiKeyId) : eq(withdrawalCounts.userId, owner.userId),
        status ? eq(withdrawalCounts.status, status) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}
