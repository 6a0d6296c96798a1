/** The merchant's cancel of a refund nobody has claimed yet. */

import { and, eq } from "drizzle-orm";
import type { Db } from "../db";
import { refunds } from "../db/schema";
import { AppError } from "../errors";
import { findRefund } from "./find-refund";
import { type RefundView, toRefundView } from "./refund-view";

/** awaiting_address → cancelled by the merchant (again: nothing changes); a refund already claimed stays as it is. */
export async function cancelRefund(db: Db, scope: { apiKeyId: number } | { userId: number }, refundId: string): Promise<RefundView> {
  await findRefund(db, scope, refundId); // scope, lazy expiry
  const now = new Date();
  const [cancelled] = await db
    .update(refunds)
    .set({ status: "cancelled", reason: "cancelled by the merchant", cancelledAt: now, updatedAt: now })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, "awaiting_address")))
    .returning();
  const after = await findRefund(db, scope, refundId);
  if (!cancelled && after.refund.status !== "cancelled") {
    throw new AppError(
      "VALIDATION_ERROR",
      `this refund is ${after.refund.status.replace("_", " ")}; only a refund awaiting an address can be cancelled`,
    );
  }
  return toRefundView(after);
}
