/** Loaders of the payer's pages (the refund claim and the payment link): null when there is no such record. */

import { AppError } from "../../base/errors";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { type PaymentLinkPage, paymentLinkPage } from "../payment-links/pay-link";
import { type RefundClaimPage, refundClaimPage } from "./claim-refund";

export async function loadRefundClaim(db: Db, refundId: string): Promise<RefundClaimPage | null> {
  if (!isUuid(refundId)) return null;
  try {
    const page = await refundClaimPage(db, refundId.toLowerCase());
    // Nothing to claim until a second member of the shop approves it: the page does not exist yet.
    return page.status === "awaiting_approval" ? null : page;
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export async function loadPaymentLinkPage(db: Db, slug: string): Promise<PaymentLinkPage | null> {
  return paymentLinkPage(db, slug);
}
