import { and, asc, eq } from "drizzle-orm";
import type { Address } from "viem";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ChainTransaction, chainTransactions } from "../../db/schema/engine";
import { publicClientFor, requireNetworkConfig } from "../chain/networks";
import { broadcastRecorded } from "./broadcast";
import { decideNonce, type NonceFact } from "./decide";
import { landedReceipt } from "./finality";
import { applyNonceDecision, nonceStateOf, replaceByWinner } from "./nonce-records";

/**
 * How one nonce of one wallet stands, for every kind of transaction (docs/design.md §17):
 *   settled          one row of the nonce is mined (ok or reverted) at the confirmation depth: `winner`;
 *                    the others are replaced. Business records take their outcome from this only.
 *   taken-by-other   the nonce went to a transaction outside the ledger: nothing of ours was mined
 *                    (its receipts are read again for hours: a late one still settles it)
 *   open             not decided yet: the newest row's bytes were sent again, or a receipt waits for depth
 */
export type NonceOutcome =
  | { state: "settled"; winner: ChainTransaction; rows: ChainTransaction[] }
  | { state: "taken-by-other"; rows: ChainTransaction[] }
  | { state: "open"; atWalletNext: boolean; newest: ChainTransaction; rows: ChainTransaction[] };

export interface NonceRef {
  network: string;
  wallet: string;
  nonce: number;
}

/**
 * A nonce settled as taken by another whose receipts are still being read again (recheck.ts): a
 * late receipt may yet settle it as ours. Callers that would act on the loss (plan a forward again,
 * give a batch's forwards back) wait instead until the re-reads are over.
 */
export function rereadsPending(outcome: NonceOutcome): boolean {
  return outcome.state === "taken-by-other" && outcome.rows.some((r) => r.receiptRecheckAt !== null);
}

/** The rows of a nonce, oldest first. */
export async function nonceRows(db: Db, ref: NonceRef): Promise<ChainTransaction[]> {
  return db
    .select()
    .from(chainTransactions)
    .where(
      and(eq(chainTransactions.network, ref.network), eq(chainTransactions.wallet, ref.wallet), eq(chainTransactions.nonce, ref.nonce)),
    )
    .orderBy(asc(chainTransactions.id));
}

/** What the ledger already knows, without asking the chain. */
export function knownOutcome(rows: ChainTransaction[]): NonceOutcome | null {
  const winner = rows.find((r) => r.status === "mined" || r.status === "reverted");
  if (winner) return { state: "settled", winner, rows };
  if (rows.length > 0 && rows.every((r) => r.status === "replaced")) return { state: "taken-by-other", rows };
  return null;
}

/** Reads the chain for a nonce, records what it decides, and re-sends the newest open row's bytes. */
export async function settleNonce(db: Db, ref: NonceRef, options: { rebroadcast?: boolean } = {}): Promise<NonceOutcome> {
  const rows = await nonceRows(db, ref);
  const known = knownOutcome(rows);
  if (known?.state === "settled" && rows.some((r) => r.status === "pending")) {
    await replaceByWinner(db, ref, known.winner.id, new Date());
    // biome-ignore lint/style/noNonNullAssertion: `known` is settled: its winner is mined or reverted, a status no row leaves, so the rows read again still have it
    return knownOutcome(await nonceRows(db, ref))!;
  }
  if (known) return known;
  // No winner and not every row replaced: some row is still pending, so `open` is empty only when there are no rows.
  const open = rows.filter((r) => r.status === "pending");
  const newest = open.at(-1);
  if (!newest) throw new Error(`no ledger row for nonce ${ref.nonce} of ${ref.wallet} on ${ref.network}`);
  const client = publicClientFor(ref.network);
  const landed = await landedReceipt(client, requireNetworkConfig(ref.network).finality, open);
  let fact: NonceFact;
  if (landed) {
    fact = { kind: "receipt-read", rowId: landed.row.id, success: landed.receipt.status === "success", final: landed.final };
  } else {
    const pinnedBlock = await client.getBlockNumber({ cacheTime: 0 });
    const countAtPinned = await client.getTransactionCount({ address: ref.wallet as Address, blockNumber: pinnedBlock });
    fact = { kind: "count-read", pinnedBlock, countAtPinned };
  }
  const now = new Date();
  const decision = decideNonce(nonceStateOf(open, newest, rows), fact, now);
  await applyNonceDecision(db, open, decision, landed, now);

  if (decision.outcome === "mined") {
    // biome-ignore lint/style/noNonNullAssertion: the decision made the row mined or reverted, or another settler had settled the nonce first: either way its rows have a winner
    return knownOutcome(await nonceRows(db, ref))!;
  }
  if (decision.outcome === "taken-by-other") {
    log.error(
      { network: ref.network, wallet: ref.wallet, nonce: ref.nonce, blocks: fact.kind === "count-read" ? Number(fact.pinnedBlock) : 0 },
      "a nonce of a service wallet was used by a transaction the service did not record (was its key used elsewhere?); its receipts are read again for a while",
    );
    return knownOutcome(await nonceRows(db, ref)) ?? { state: "taken-by-other", rows };
  }
  if (decision.outcome === "included") {
    // Mined but not final: wait for depth; nothing to re-send (a node would answer "nonce too low").
    const [fresh] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, newest.id));
    return { state: "open", atWalletNext: false, newest: fresh ?? newest, rows };
  }
  if (decision.outcome !== "open") throw new Error(`a chain read decided ${decision.outcome}, which only a stall check decides`);
  // A nonce already used only waits for its receipt; a free one is sent again — even after a refusal,
  // which another node (or the same one later) may not repeat; the watchdog fills a refused nonce.
  if (options.rebroadcast !== false && decision.nonceUsedSeenBlock === null) {
    await broadcastRecorded(db, newest);
  }
  const [fresh] = await db.select().from(chainTransactions).where(eq(chainTransactions.id, newest.id));
  return { state: "open", atWalletNext: decision.atWalletNext, newest: fresh ?? newest, rows };
}
