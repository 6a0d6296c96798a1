/**
 * A payout batch above the account's approval threshold waits `awaiting_approval` (recorded by
 * recordPayoutBatch with its approval request); these say what a decided approval does to it.
 * Approved: the approval's compare-and-set and the batch's release commit together, then its
 * chunks are recorded and sent like a fresh batch's. Rejected or expired: the batch and its items
 * end there, never reaching the ledger.
 */

import { eq } from "drizzle-orm";
import { log } from "../../base/log";
import type { Db } from "../../db";
import { type Approval, payoutBatches } from "../../db/schema";
import { errorText } from "../../engine/chain/rpc-errors";
import type { SubjectOutcome } from "../withdrawals/withdrawal-approvals";
import { rejectPayoutBatch, releasePayoutBatch } from "./record-batch";
import { sendPayoutBatch } from "./send-batch";

export async function approvePayout(db: Db, approval: Approval, claim: (tx: Db) => Promise<Approval>): Promise<SubjectOutcome> {
  await db.transaction(async (tx) => {
    await claim(tx);
    await releasePayoutBatch(tx, approval.subjectId);
  });
  try {
    await sendPayoutBatch(db, approval.subjectId);
  } catch (error) {
    // Released and recorded: the tend-ledger job sends what is left.
    log.warn({ batchId: approval.subjectId, err: errorText(error) }, "approved payout batch; sending continues in the background");
  }
  const [batch] = await db.select({ status: payoutBatches.status }).from(payoutBatches).where(eq(payoutBatches.id, approval.subjectId));
  return { status: batch?.status ?? "pending", reason: null };
}

export async function closePayout(tx: Db, approval: Approval): Promise<SubjectOutcome> {
  const reason = approval.status === "expired" ? "its approval expired" : `rejected${approval.reason ? `: ${approval.reason}` : ""}`;
  await rejectPayoutBatch(tx, approval.subjectId, reason);
  return { status: "rejected", reason };
}
