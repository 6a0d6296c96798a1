/** The merchant's cancel of a refund nobody has claimed yet, or one still waiting for its wallet's funds. */

import type { Db } from "../../db";
import { findRefund } from "./find-refund";
import { refundRefusal } from "./reasons";
import { applyRefundFact } from "./refund-records";
import { type RefundView, toRefundView } from "./refund-view";

/** awaiting_address | awaiting_funds → cancelled by the merchant (again: nothing changes); a refund being sent stays as it is. */
export async function cancelRefund(db: Db, scope: { apiKeyId: number } | { userId: number }, refundId: string): Promise<RefundView> {
  await findRefund(db, scope, refundId); // scope, lazy expiry
  await applyRefundFact(db, refundId, { kind: "cancel" });
  const after = await findRefund(db, scope, refundId);
  if (after.refund.status !== "cancelled") {
    throw refundRefusal(
      "VALIDATION_ERROR",
      "refund-not-cancellable",
      `this refund is ${after.refund.status.replace("_", " ")}; only a refund awaiting an address or funds can be cancelled`,
    );
  }
  return toRefundView(after);
}
