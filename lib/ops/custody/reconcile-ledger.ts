/**
 * The ledger's side of reconciliation (see reconcile.ts): differences read from the database
 * alone — a service wallet's nonce taken by a transaction the service never signed, and a
 * withdrawal recorded failed whose transfer was mined after all.
 */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { getAddress } from "viem";
import type { Db } from "../../db";
import { chainTransactions, isRecordedWithdrawal, withdrawals } from "../../db/schema";
import type { Difference } from "./reconcile-report";

/**
 * A nonce of a service wallet that went to a transaction the service never signed (the ledger
 * settled its rows as replaced by nothing of ours). Whatever that transaction did, it was not
 * ours — a key used elsewhere, or a withdrawal the chain may have paid twice before the ledger
 * existed — and an operator must look at the wallet's history.
 */
export async function nonceTakenDifferences(db: Db, network: string): Promise<Difference[]> {
  const rows = await db
    .select()
    .from(chainTransactions)
    .where(and(eq(chainTransactions.network, network), eq(chainTransactions.status, "replaced"), isNull(chainTransactions.replacedById)))
    .orderBy(asc(chainTransactions.wallet), asc(chainTransactions.nonce), asc(chainTransactions.id));
  const seen = new Set<string>();
  const out: Difference[] = [];
  for (const row of rows) {
    const key = `${row.wallet} ${row.nonce}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      network,
      kind: "nonce-taken",
      address: getAddress(row.wallet),
      contract: getAddress(row.toAddress),
      symbol: row.kind,
      message: `nonce ${row.nonce} of this ${row.walletRole.replace("_", " ")} wallet went to a transaction the service did not sign (its ${row.kind} ${row.txHash} was never mined); check the wallet's history`,
    });
  }
  return out;
}

/**
 * A withdrawal recorded `failed` whose transfer — or a re-priced copy of it — was mined after all.
 * The ledger never fails a withdrawal before a receipt, but rows moved from before it (a failure
 * decided from a lagging node) can: the tokens left, the shop was told they did not, and its key
 * was released for a retry. The operator must settle that with the merchant.
 */
export async function paidAfterFailedDifferences(db: Db, network: string): Promise<Difference[]> {
  const failedRows = await db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.network, network), eq(withdrawals.status, "failed")));
  // A withdrawal refused at its approval never had a nonce: nothing of it can have been mined.
  const failed = failedRows.filter(isRecordedWithdrawal);
  if (failed.length === 0) return [];
  const mined = await db
    .select()
    .from(chainTransactions)
    .where(
      and(
        eq(chainTransactions.network, network),
        eq(chainTransactions.kind, "withdrawal"),
        eq(chainTransactions.status, "mined"),
        inArray(chainTransactions.nonce, [...new Set(failed.map((w) => w.nonce))]),
      ),
    );
  return failed.flatMap((w) => {
    const paid = mined.find((r) => r.wallet.toLowerCase() === w.fromAddress.toLowerCase() && r.nonce === w.nonce);
    if (!paid) return [];
    return [
      {
        network,
        kind: "paid-after-failed" as const,
        address: getAddress(w.fromAddress),
        contract: getAddress(paid.toAddress),
        symbol: "withdrawal",
        message: `withdrawal ${w.id} is recorded failed, but its transfer ${paid.txHash} was mined: the tokens left (check whether the shop retried it)`,
      },
    ];
  });
}
