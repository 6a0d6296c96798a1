/**
 * Why a payment (a session, a link's Pay, a payer's cancel) or an amount anywhere is refused
 * (docs/design.md §22): the stable key a page maps to its own words.
 */

import { type AppError, type Refusal, refusal } from "../../base/errors";
import { type AmountProblem, amountProblemMessage } from "../../base/money";

export const PAYMENT_REASONS = [
  "amount-malformed",
  "amount-zero",
  "amount-too-precise",
  "amount-too-large",
  /** Below the token's smallest payment, or a link's least amount. */
  "amount-below-minimum",
  "token-unknown",
  "token-network-not-served",
  /** The operator no longer accepts the token (disallowed from the catalogue). */
  "token-not-accepted",
  /** The merchant has no whitelisted domain at all. */
  "no-domain",
  "origin-not-whitelisted",
  "domain-not-yours",
  "payment-not-pending",
  /** Part of it arrived: only the shop may cancel it now (and the rest is asked in the token paid). */
  "payment-partly-paid",
  /** A create with both `tokenId` (a token amount) and `currency` (a fiat price). */
  "token-and-currency",
  /** A fiat price no accepted token can pay now: every feed stale, missing, de-pegged, or the amount below a minimum. */
  "no-token-offered",
  /** A fiat session's `tokens` on more than one network: one session has one deposit address on one chain. */
  "tokens-span-networks",
  /** Choosing a token on a session priced in a token. */
  "payment-not-fiat",
  /** Choosing a token the session did not quote. */
  "token-not-offered",
] as const;
export type PaymentReason = (typeof PAYMENT_REASONS)[number];

export const paymentRefusal: Refusal<PaymentReason> = refusal;

const AMOUNT_REASONS: Record<AmountProblem, PaymentReason> = {
  format: "amount-malformed",
  zero: "amount-zero",
  precision: "amount-too-precise",
  range: "amount-too-large",
};

/** VALIDATION_ERROR for an amount that does not parse (lib/base/money.ts), with its reason. */
export function amountRefusal(field: string, problem: AmountProblem, decimals: number): AppError {
  return paymentRefusal("VALIDATION_ERROR", AMOUNT_REASONS[problem], amountProblemMessage(field, problem, decimals));
}
