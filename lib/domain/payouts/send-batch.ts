/**
 * Sending a payout batch through the ledger, one chunk at a time: each chunk is reserved and
 * recorded (record-chunk.ts) and then sent (sendPayoutChunk) — the reserve → record → send of one
 * transfer (lib/domain/transfers), with its functions.
 *
 * Why approve + transferFrom and not an EIP-7702 delegation of the wallet: the wallet would have
 * to sign its own authorization, which takes a nonce of its own beside the transaction's (or one
 * of the gas tank's transactions would move the wallet's nonce): either way a nonce of the wallet's
 * ledger stream would be used outside it. Approve + pay keeps every nonce in the ledger, runs on
 * chains with and without EIP-7702 alike (classic and batched sweep modes), and costs one extra
 * approve per chunk.
 */

import { and, eq, inArray } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type ChainTransaction, payoutBatches, payoutItems } from "../../db/schema";
import { errorText } from "../../engine/chain/rpc-errors";
import { sendLedgerRow } from "../transfers/send-transfer";
import { recordPayoutChunk } from "./record-chunk";

/** Chunks one call records and sends at most (a batch of 500 needs a few on a small block). */
const MAX_CHUNKS_PER_CALL = 20;

/** Records and sends the batch's pending items, chunk after chunk; the number of chunks sent. Failures are left for the job. */
export async function sendPayoutBatch(db: Db, batchId: string): Promise<number> {
  let sent = 0;
  for (let round = 0; round < MAX_CHUNKS_PER_CALL; round++) {
    const rows = await recordPayoutChunk(db, batchId);
    if (rows === null) break;
    await sendPayoutChunk(db, rows);
    sent++;
  }
  return sent;
}

/** Resumes after a restart: every batch with pending items gets its chunks recorded and sent. */
export async function sendPendingPayouts(db: Db): Promise<number> {
  const open = await db
    .selectDistinct({ id: payoutBatches.id })
    .from(payoutBatches)
    .innerJoin(payoutItems, eq(payoutItems.batchId, payoutBatches.id))
    .where(and(inArray(payoutBatches.status, ["pending", "sending"]), eq(payoutItems.status, "pending")));
  let chunks = 0;
  for (const { id } of open) {
    try {
      chunks += await sendPayoutBatch(db, id);
    } catch (error) {
      log.warn({ batchId: id, err: errorText(error) }, "payout batch not sent this round; retrying");
    }
  }
  return chunks;
}

/**
 * First broadcast of a recorded chunk's rows, in nonce order (only ever their recorded bytes), as a
 * transfer's is sent (sendLedgerRow). A node that refuses a row for good has its nonce filled
 * (recorded first): the chunk then settles as not sent.
 */
export async function sendPayoutChunk(db: Db, rows: readonly ChainTransaction[]): Promise<void> {
  for (const row of rows) await sendLedgerRow(db, row);
}
