/**
 * Why a refund, or a payer's claim of one, is refused (docs/design.md §22): the stable key a page maps
 * to its own words. Pure and free of server imports: the claim page's client code uses it.
 */

import { type Refusal, refusal } from "../../base/errors";

export const REFUND_REASONS = [
  "payment-still-pending",
  "payment-nothing-received",
  "payment-fully-refunded",
  "payment-has-no-domain",
  "payment-domain-removed",
  "payment-token-not-yours",
  "payment-network-not-served",
  "refund-exceeds-refundable",
  "refund-no-default-amount",
  "refund-default-moved",
  "refund-address-zero",
  "refund-not-cancellable",
  "refund-not-claimable",
  "refund-claim-unavailable",
  "refund-basis-token-priced",
  "refund-fiat-amount-needs-fiat-basis",
  "refund-amount-with-fiat-basis",
  "refund-rate-unavailable",
  "refund-link-not-creator",
  "refund-link-unavailable",
  "refund-approval-without-address",
] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const refundRefusal: Refusal<RefundReason> = refusal;
