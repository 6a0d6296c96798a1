/**
 * Why a payment link cannot be saved or paid (docs/design.md §22); its amounts, tokens and domain
 * refuse with the payments' reasons (lib/domain/payments/reasons.ts).
 */

import { type Refusal, refusal } from "../../base/errors";

export const LINK_REASONS = [
  "link-inactive",
  /** The link already has payments: its token is fixed. */
  "link-token-locked",
  "link-price-both",
  "link-price-missing",
  /** A price in a currency is a fixed amount: the payer does not choose it (minAmount). */
  "link-fiat-fixed-only",
  /** A Pay of an open-priced link without an amount. */
  "link-amount-missing",
  /** The link has its cap of open payments nobody has paid yet. */
  "link-busy",
  /** This client has its cap of open payments of the link. */
  "link-client-busy",
] as const;
export type LinkReason = (typeof LINK_REASONS)[number];

export const linkRefusal: Refusal<LinkReason> = refusal;
