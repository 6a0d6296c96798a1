/** A refund follows its withdrawal: mined and confirmed → completed, failed → failed (with the reason). */

import type { Db } from "../db";
import type { Withdrawal } from "../db/schema";
import { applyRefundFact } from "./refund-records";

/** In the transaction that settles the withdrawal: both change together, and the event with them. */
export async function settleRefundOf(tx: Db, withdrawal: Pick<Withdrawal, "refundId" | "status" | "failureReason">): Promise<void> {
  if (withdrawal.refundId === null || withdrawal.status === "submitted") return;
  await applyRefundFact(
    tx,
    withdrawal.refundId,
    withdrawal.status === "completed"
      ? { kind: "withdrawal-completed" }
      : { kind: "withdrawal-failed", reason: withdrawal.failureReason ?? "the transfer failed" },
  );
}
