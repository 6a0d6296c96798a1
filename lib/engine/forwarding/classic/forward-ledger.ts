/**
 * A forward's two transactions (the gas tank's top-up, the deposit key's sweep) are ledger rows:
 * sent, re-sent, re-priced and settled by lib/engine/ledger like every other transaction. This is the
 * forward's side of that: send a recorded row, and ask how its nonce ended.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { type ChainTransaction, chainTransactions, forwards } from "../../../db/schema/engine";
import { broadcastRecorded } from "../../ledger/broadcast";
import { type NonceOutcome, rereadsPending, settleNonce } from "../../ledger/settle";

export async function sendForwardTransaction(db: Db, row: ChainTransaction, forwardId: number): Promise<void> {
  const sent = await broadcastRecorded(db, row);
  if (!sent.sent)
    await db
      .update(forwards)
      .set({ lastError: `broadcast: ${sent.error}`.slice(0, 500), updatedAt: new Date() })
      .where(eq(forwards.id, forwardId));
}

/**
 * How the forward's transaction ended, as the ledger settles its nonce:
 *   waiting   not decided (its bytes were sent again), or taken by a transaction the service never
 *             signed while its receipts are still read again (a receipts node behind may have hidden ours)
 *   done      this transaction — or its re-priced copy — was mined: `success` says whether it reverted
 *   lost      its nonce went to another transaction (a cancel, or one the service never signed, once
 *             the re-reads are over): nothing of it happened
 */
export type ForwardTransactionOutcome =
  | { state: "waiting" }
  | { state: "done"; success: boolean; winner: ChainTransaction }
  | { state: "lost" };

export async function forwardTransactionOutcome(db: Db, ledgerId: number): Promise<ForwardTransactionOutcome> {
  const [row] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, ledgerId));
  if (!row) throw new Error(`ledger row ${ledgerId} not found`);
  return outcomeFor(row, await settleNonce(db, row));
}

function outcomeFor(row: ChainTransaction, outcome: NonceOutcome): ForwardTransactionOutcome {
  if (outcome.state === "open" || rereadsPending(outcome)) return { state: "waiting" };
  if (outcome.state === "taken-by-other") return { state: "lost" };
  const { winner } = outcome;
  if (winner.kind !== row.kind) return { state: "lost" };
  return { state: "done", success: winner.status === "mined", winner };
}
