/**
 * Settling payout items from the ledger, as a withdrawal is (lib/domain/transfers/settle-transfer.ts
 * for both): the ledger settles each chunk's nonce (re-sending its recorded bytes meanwhile); once a row of it is final,
 * the winner's receipt says each item's outcome — a `Paid` event per transfer, so one refused
 * transfer fails only its own item. A chunk whose transaction reverted, was cancelled, or whose
 * nonce went to another transaction paid nobody: its items fail.
 */

import { and, asc, eq, inArray } from "drizzle-orm";
import { type Hash, parseEventLogs } from "viem";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type PayoutBatch, type PayoutItem, payoutBatches, payoutItems } from "../../db/schema";
import { BATCH_PAYERS, batchPayerAbi } from "../../engine/chain/batch-payer";
import { networkConfig, publicClientFor } from "../../engine/chain/networks";
import { errorText } from "../../engine/chain/rpc-errors";
import { rereadsPending } from "../../engine/ledger/settle";
import { settleTransfer } from "../transfers/settle-transfer";
import { applyItemFacts } from "./payout-records";
import type { ItemFact } from "./payout-state";

/** Job step: every sending chunk of every open batch settled as far as the ledger allows. */
export async function settlePayoutBatches(db: Db): Promise<{ settled: number; open: number }> {
  const open = await db
    .selectDistinct({ batch: payoutBatches, nonce: payoutItems.nonce })
    .from(payoutBatches)
    .innerJoin(payoutItems, eq(payoutItems.batchId, payoutBatches.id))
    .where(and(eq(payoutBatches.status, "sending"), eq(payoutItems.status, "sending")));
  const counts = { settled: 0, open: 0 };
  for (const { batch, nonce } of open) {
    if (nonce === null) continue;
    try {
      counts[(await settleChunk(db, batch, nonce)) ? "settled" : "open"]++;
    } catch (error) {
      counts.open++;
      log.warn({ batchId: batch.id, nonce, err: errorText(error) }, "payout chunk check failed; retrying");
    }
  }
  return counts;
}

/** True once the chunk at `nonce` is settled (its items final). */
export async function settleChunk(db: Db, batch: PayoutBatch, nonce: number): Promise<boolean> {
  const network = networkConfig(batch.network);
  if (!network) return false;
  const outcome = await settleTransfer(db, { network: batch.network, wallet: batch.fromAddress, nonce }, network);
  let facts: (item: PayoutItem) => ItemFact;
  let txHash: string | null = null;
  if (outcome.state === "taken-by-other") {
    if (rereadsPending(outcome)) return false;
    facts = () => ({ kind: "not-sent", reason: "the payout transaction's nonce was used by another transaction" });
  } else if (outcome.state === "open") {
    return false;
  } else {
    const { winner } = outcome;
    if (!outcome.confirmed) return false;
    if (winner.kind !== "payout") facts = () => ({ kind: "not-sent", reason: "the payout transaction was cancelled" });
    else if (winner.status !== "mined") {
      txHash = winner.txHash;
      facts = () => ({ kind: "not-sent", reason: "the payout transaction reverted" });
    } else {
      txHash = winner.txHash;
      const paid = await paidPositions(batch.network, winner.txHash as Hash, winner.toAddress);
      const items = await chunkItems(db, batch.id, nonce);
      const position = new Map(items.map((item, i) => [item.id, i]));
      facts = (item) => {
        const outcome = paid.get(position.get(item.id) ?? -1);
        if (outcome === undefined)
          return { kind: "settled", paid: false, reason: "the payout transaction's receipt has no outcome for this item" };
        if (outcome.to.toLowerCase() !== item.toAddress.toLowerCase() || outcome.amount !== item.amount)
          return {
            kind: "settled",
            paid: false,
            reason: "the payout transaction's outcome for this item names another recipient or amount",
          };
        return { kind: "settled", paid: outcome.ok };
      };
    }
  }
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, batch.id)).for("no key update");
    if (!locked) return;
    const items = await chunkItems(tx, batch.id, nonce);
    await applyItemFacts(
      tx,
      locked,
      items.filter((item) => item.status === "sending").map((item) => ({ item, fact: facts(item) })),
      { txHash },
    );
  });
  return true;
}

/** The chunk's items in the order the pay call listed them. */
function chunkItems(db: Db, batchId: string, nonce: number) {
  return db
    .select()
    .from(payoutItems)
    .where(
      and(eq(payoutItems.batchId, batchId), eq(payoutItems.nonce, nonce), inArray(payoutItems.status, ["sending", "completed", "failed"])),
    )
    .orderBy(asc(payoutItems.position));
}

/**
 * position in the pay call → its transfer's recipient, amount and outcome, from the receipt's Paid
 * events — the ones of the BatchPayer the transaction called (v1 for chunks signed before the
 * upgrade to v2), nobody else's. The first event of a position counts, and the item's own recipient
 * and amount are checked against it (v2 refuses calls from inside a payment, so it emits no others).
 */
async function paidPositions(
  network: string,
  hash: Hash,
  payer: string,
): Promise<Map<number, { to: string; amount: bigint; ok: boolean }>> {
  const receipt = await publicClientFor(network).getTransactionReceipt({ hash });
  const logs = parseEventLogs({
    abi: batchPayerAbi,
    eventName: "Paid",
    logs: receipt.logs.filter(
      (l) => l.address.toLowerCase() === payer.toLowerCase() && BATCH_PAYERS.some((known) => known.toLowerCase() === payer.toLowerCase()),
    ),
  });
  const paid = new Map<number, { to: string; amount: bigint; ok: boolean }>();
  for (const entry of logs) {
    const args = entry.args as unknown as { position: bigint; to: string; amount: bigint; ok: boolean };
    const position = Number(args.position);
    if (!paid.has(position)) paid.set(position, { to: args.to, amount: args.amount, ok: args.ok });
  }
  return paid;
}
