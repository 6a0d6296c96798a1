/**
 * What recovery waits for before it signs anything: a transaction still in flight — recorded in
 * the ledger by an earlier, interrupted run, or seen pending on chain — is settled first, so
 * nothing is sent twice and no new transfer waits behind a nonce hole.
 */
import { and, eq } from "drizzle-orm";
import type { Address } from "viem";
import type { Db } from "../../db";
import { type ChainTransaction, chainTransactions } from "../../db/schema";
import { publicClientFor } from "../../engine/chain/networks";
import { rereadsPending, settleNonce } from "../../engine/ledger/settle";

/** How long recovery waits for a wallet's transaction in flight before it asks to be run again. */
export const SETTLE_WAIT_MS = 60_000;

/**
 * The wallet's ledger rows still open — an earlier run's transfer recorded but perhaps never sent
 * (a crash between the two) — are sent again, the same bytes, and waited for: a new transfer
 * signed meanwhile would take the next nonce and find the balance gone.
 */
export async function settleLedgerInFlight(db: Db, network: string, address: Address): Promise<void> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const open = await db
      .selectDistinct({ nonce: chainTransactions.nonce })
      .from(chainTransactions)
      .where(and(eq(chainTransactions.network, network), eq(chainTransactions.wallet, address), eq(chainTransactions.status, "pending")));
    if (open.length === 0) return;
    for (const { nonce } of open) await settleNonce(db, { network, wallet: address, nonce });
    if (Date.now() > deadline)
      throw new Error(`${address} has a recorded transaction not mined within ${SETTLE_WAIT_MS / 1000} s; run recover again once it is`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Waits while the wallet has a transaction in flight (an earlier run's), so nothing is sent twice. */
export async function settleInFlight(network: string, address: Address): Promise<void> {
  const client = publicClientFor(network);
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const [mined, pending] = await Promise.all([
      client.getTransactionCount({ address }),
      client.getTransactionCount({ address, blockTag: "pending" }),
    ]);
    if (pending <= mined) return;
    if (Date.now() > deadline) throw new Error(`${address} still has a transaction in flight; run recover again once it is mined`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * What became of the row's nonce:
 *   a row       the transaction that used it, once the ledger holds its receipt (a stand-in marked
 *               "replaced" when it went to a transaction the service did not sign and the re-reads are over)
 *   rechecking  judged taken by another, but its receipts are still read again (a receipts node behind
 *               may have hidden ours): recover reports it as still being checked, never as replaced
 *   null        not decided within the wait
 */
export type NonceWait = ChainTransaction | "rechecking" | null;

/** Waits for the row's nonce to settle; see NonceWait. */
export async function waitForNonce(db: Db, row: ChainTransaction): Promise<NonceWait> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const outcome = await settleNonce(db, row);
    if (outcome.state === "settled") return outcome.winner;
    if (rereadsPending(outcome)) return "rechecking";
    if (outcome.state === "taken-by-other") return { ...row, status: "replaced" };
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The line recover prints for a nonce still being re-read. */
export const RECHECKING =
  "its nonce looks taken by a transaction the service did not sign, but its receipt is still being checked (for up to a day); run recover again later";
