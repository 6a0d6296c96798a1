/** The overview's loader (`/dashboard`): it opens the database itself, so app/ never holds a handle. */
import { getDb } from "../../../db";
import { accountVolume } from "../account/account-value";
import { lowGasTanks, onboarding, paymentsByStatus, recentPayments, volumeByDay, walletBalances } from "./overview";

/**
 * `/dashboard`: the checklist, counts by status, volume over `range` days (in the account's currency,
 * and by token beside), wallets, low gas tanks, recent payments.
 */
export async function loadOverviewPage(userId: number, range: 7 | 30, accountCurrency = "USD") {
  const db = await getDb();
  const [checklist, counts, volume, value, balances, tanks, recent] = await Promise.all([
    onboarding(db, userId),
    paymentsByStatus(db, userId),
    volumeByDay(db, userId, range),
    accountVolume(db, userId, accountCurrency, range),
    walletBalances(db, userId),
    lowGasTanks(db),
    recentPayments(db, userId),
  ]);
  return { checklist, counts, volume, value, balances, tanks, recent };
}
