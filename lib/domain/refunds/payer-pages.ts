/** Loaders of the payer's pages (the refund claim and the payment link): null when there is no such record. */

import { AppError } from "../../base/errors";
import { isUuid } from "../../base/validation";
import type { Db } from "../../db";
import { type PaymentLinkPage, paymentLinkPage } from "../payment-links/pay-link";
import { assertClaimRead } from "./claim-access";
import { type RefundClaimPage, refundClaimPage } from "./claim-refund";

/**
 * The claim page of `refundId` for the holder of its link's secret. A wrong or missing secret, an
 * unknown refund, and a client over the refund-claim limit (claim-access.ts) all read as no such
 * page: the payer's page is a 404 in each case, so it is no oracle for which part was wrong.
 */
export async function loadRefundClaim(
  db: Db,
  refundId: string,
  secret: string | null | undefined,
  client: string,
): Promise<RefundClaimPage | null> {
  if (!isUuid(refundId)) return null;
  try {
    await assertClaimRead(db, client, refundId, secret);
    return await refundClaimPage(db, refundId.toLowerCase(), secret);
  } catch (error) {
    if (error instanceof AppError && (error.code === "NOT_FOUND" || error.code === "RATE_LIMITED")) return null;
    throw error;
  }
}

export async function loadPaymentLinkPage(db: Db, slug: string): Promise<PaymentLinkPage | null> {
  return paymentLinkPage(db, slug);
}
