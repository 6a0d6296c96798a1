import { and, asc, eq, isNull } from "drizzle-orm";
import { getAddress } from "viem";
import type { Db } from "../db";
import { chainTransactions } from "../db/schema";
import type { Difference } from "./reconcile";

/**
 * The ledger's side of reconciliation: a nonce of a service wallet that went to a transaction the
 * service never signed (the ledger settled its rows as replaced by nothing of ours). Whatever
 * that transaction did, it was not ours — a key used elsewhere, or a withdrawal the chain may
 * have paid twice before the ledger existed — and an operator must look at the wallet's history.
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
