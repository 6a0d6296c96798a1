/** Loaders of the payer's pages (the refund claim and the payment link): null when there is no such record. */

import { getDb } from "../db";
import { AppError } from "../errors";
import { type PaymentLinkPage, paymentLinkPage } from "../payment-links/pay-link";
import { ensureStarted } from "../startup";
import { isUuid } from "../validation";
import { type RefundClaimPage, refundClaimPage } from "./claim-refund";

export async function loadRefundClaim(refundId: string): Promise<RefundClaimPage | null> {
  if (!isUuid(refundId)) return null;
  await ensureStarted();
  try {
    return await refundClaimPage(await getDb(), refundId.toLowerCase());
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export async function loadPaymentLinkPage(slug: string): Promise<PaymentLinkPage | null> {
  await ensureStarted();
  return paymentLinkPage(await getDb(), slug);
}
