/** The withdrawals pages' loaders (the list, one withdrawal, the CSV export): each opens the database itself. */
import { getDb } from "../../../db";
import type { WithdrawalStatus } from "../../../db/schema";
import { listDomains } from "../../../domain/merchant-domains/manage-domains";
import { listTokens } from "../../../domain/tokens/list-tokens";
import { getUserWithdrawal, listUserWithdrawals } from "../../../domain/withdrawals/user-withdrawals";
import { withdrawalsCsvStream } from "./withdrawals-export";

/** The statuses the withdrawal list filters by (the schema's own list). */
export { WITHDRAWAL_STATUSES, type WithdrawalStatus } from "../../../db/schema";

/** `/dashboard/withdrawals`: one page of withdrawals, and the domains and tokens the send form offers. */
export async function loadWithdrawalsPage(userId: number, query: Parameters<typeof listUserWithdrawals>[2]) {
  const db = await getDb();
  const [page, domains, tokens] = await Promise.all([
    listUserWithdrawals(db, userId, query),
    listDomains(db, userId),
    listTokens(db, userId),
  ]);
  return { page, domains, tokens };
}

/** `/dashboard/withdrawals/<withdrawalId>`: one withdrawal (NOT_FOUND when it is not the user's). */
export async function loadWithdrawalPage(userId: number, withdrawalId: string) {
  return getUserWithdrawal(await getDb(), userId, withdrawalId);
}

/** `/dashboard/withdrawals/export`: the withdrawals (of one status, or all) as CSV bytes. */
export async function openWithdrawalsExport(userId: number, status?: WithdrawalStatus): Promise<ReadableStream<Uint8Array>> {
  return withdrawalsCsvStream(await getDb(), userId, { status });
}
