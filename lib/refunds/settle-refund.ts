/** A refund follows its withdrawal: mined and confirmed → completed, failed → failed (with the reason). */

import { and, eq } from "drizzle-orm";
import type { Db } from "../db";
import { refunds, type Withdrawal } from "../db/schema";
import { enqueueRefundEvent } from "./refund-events";

/** In the transaction that settles the withdrawal: both change together, and the event with them. */
export async function settleRefundOf(tx: Db, withdrawal: Pick<Withdrawal, "refundId" | "status" | "failureReason">): Promise<void> {
  if (withdrawal.refundId === null || withdrawal.status === "submitted") return;
  const now = new Date();
  const completed = withdrawal.status === "completed";
  const [refund] = await tx
    .update(refunds)
    .set(
      completed
        ? { status: "completed", completedAt: now, updatedAt: now }
        : { status: "failed", reason: withdrawal.failureReason ?? "the transfer failed", updatedAt: now },
    )
    .where(and(eq(refunds.id, withdrawal.refundId), eq(refunds.status, "sending")))
    .returning();
  if (refund) await enqueueRefundEvent(tx, refund, completed ? "refund.completed" : "refund.failed", now);
}
