/**
 * Ledger against chain (docs/design.md §16). For every token: what the ledger says about deposits
 * (recorded, forwarded, in flight, held, waiting below the minimum) and what the deposit addresses
 * and withdrawal wallets really hold. A difference is anything an operator must look at:
 * - a held forward (money that should have moved and did not);
 * - a deposit address holding less than the ledger's unswept deposits there (short), or more
 *   than them at both the latest and the scanner's block (untracked: sent behind the ledger's
 *   back, or missed);
 * - a withdrawal wallet holding less than it received through forwards minus what it sent and is
 *   sending (tokens left it without a record). More is fine: merchants fund their wallets.
 * - a nonce of a service wallet that the ledger saw go to a transaction the service never signed;
 * - a withdrawal recorded failed whose transfer was mined after all (rows from before the ledger).
 * Addresses with a sweep in flight are left for the next run (their balance is moving). The
 * deposit addresses read are those that can hold something plus a rolling sample of the rest
 * (`reconcile-coverage.ts`), and the result says what they were.
 *
 * The checks live beside this file: deposit addresses and held forwards (`reconcile-network.ts`),
 * withdrawal wallets (`reconcile-wallets.ts`), the ledger's own rows (`reconcile-ledger.ts`); the
 * result, how it is kept and printed, in `reconcile-report.ts` (re-exported here for callers).
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db";
import { chainCursors } from "../../db/schema";
import { listNetworks } from "../../engine/chain/networks";
import { nonceTakenDifferences, paidAfterFailedDifferences } from "./reconcile-ledger";
import { reconcileNetwork } from "./reconcile-network";
import type { Reconciliation } from "./reconcile-report";

export {
  type Difference,
  formatReconciliation,
  type LastReconciliation,
  lastReconciliation,
  RECONCILIATION_STATE_KEY,
  type Reconciliation,
  saveReconciliation,
  type TokenSummary,
} from "./reconcile-report";

/** `sampleSize`: old addresses read this run besides those that can hold something (reconcile-coverage.ts). */
export async function reconcile(db: Db, options: { network?: string; sampleSize?: number } = {}): Promise<Reconciliation> {
  const networks = listNetworks().filter((n) => !options.network || n.name === options.network);
  const result: Reconciliation = { ranAt: new Date().toISOString(), networks: [], coverage: [], tokens: [], differences: [] };
  for (const network of networks) {
    const [cursor] = await db.select().from(chainCursors).where(eq(chainCursors.network, network.name));
    result.networks.push({ network: network.name, block: cursor ? String(cursor.lastScannedBlock) : null });
    await reconcileNetwork(db, network.name, cursor?.lastScannedBlock ?? null, result, { sampleSize: options.sampleSize });
    result.differences.push(...(await nonceTakenDifferences(db, network.name)), ...(await paidAfterFailedDifferences(db, network.name)));
  }
  return result;
}
