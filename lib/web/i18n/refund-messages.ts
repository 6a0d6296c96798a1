/**
 * Every string of the refund claim page (/refund/<id>) and the payment link page (/l/<slug>), per
 * language (one file per language in payer/): the checkout's six. `{…}` marks a value put in by the page.
 */

import type { CommonReason, ErrorDetail } from "../../base/errors";
import type { LinkReason } from "../../domain/payment-links/reasons";
import type { PaymentReason } from "../../domain/payments/reasons";
import type { ClaimProblem } from "../../domain/refunds/claim-problems";
import type { Locale } from "./locale";
import { en, type PayerPageMessages } from "./payer/en";
import { es } from "./payer/es";
import { ru } from "./payer/ru";
import { tr } from "./payer/tr";
import { vi } from "./payer/vi";
import { zh } from "./payer/zh";

export type { PayerPageMessages };

export const PAYER_PAGE_MESSAGES: Record<Locale, PayerPageMessages> = { en, zh, vi, ru, tr, es };

/** The sentence the claim page shows for a refused claim (lib/domain/refunds/claim-problems.ts). */
export function claimProblemMessage(problem: ClaimProblem, t: PayerPageMessages): string {
  const sentences: Record<ClaimProblem, string> = {
    "invalid-address": t.invalidAddress,
    "zero-address": t.zeroAddress,
    "service-address": t.serviceAddress,
    "not-claimable": t.unavailableBody,
    unavailable: t.claimUnavailable,
  };
  return sentences[problem];
}

/** The reasons a Pay of a payment link is refused with that the payer can do something about (docs/design.md §22). */
export const LINK_PAY_REASONS = [
  "not-found",
  "link-inactive",
  "link-amount-missing",
  "amount-malformed",
  "amount-zero",
  "amount-too-precise",
  "amount-too-large",
  "amount-below-minimum",
] as const satisfies readonly (LinkReason | PaymentReason | CommonReason)[];

/**
 * The sentence the payment link page shows for a refused Pay (not a busy one: that has its own
 * block). Any other reason is the merchant's side (its package, domain or token), never told.
 */
export function linkRefusalMessage(error: { reason?: string; details?: ErrorDetail[] } | undefined, t: PayerPageMessages): string {
  // The route's own schema: the amount the payer typed is not a decimal number.
  const reason =
    error?.reason === "invalid-request" && error.details?.some((d) => d.path === "amount") ? "amount-malformed" : error?.reason;
  const sentences: Record<(typeof LINK_PAY_REASONS)[number], string> = {
    "not-found": t.linkInactiveBody,
    "link-inactive": t.linkInactiveBody,
    "link-amount-missing": t.linkAmountMissing,
    "amount-malformed": t.linkAmountInvalid,
    "amount-zero": t.linkAmountInvalid,
    "amount-too-precise": t.linkAmountInvalid,
    "amount-too-large": t.linkAmountInvalid,
    "amount-below-minimum": t.linkAmountTooSmall,
  };
  return sentences[reason as keyof typeof sentences] ?? t.linkUnavailable;
}
