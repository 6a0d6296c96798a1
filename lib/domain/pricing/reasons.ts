/**
 * Why a token gets no quote for a fiat price (docs/design.md §23), and why a fiat price is refused: the
 * stable keys a page maps to its own words ("USDC is not available right now: its price is out of
 * date"), never a message to match.
 */

import { type Refusal, refusal } from "../../base/errors";

/** Per token: this token is not offered for this price, the others may be. */
export const QUOTE_UNAVAILABLE_REASONS = [
  /** The catalogue names no USD feed (or no heartbeat) for the token. */
  "feed-not-configured",
  /** The token's feed reverted, ran out of gas or answered bytes that do not decode. */
  "feed-unreadable",
  /** The token's feed answered nonsense: a price ≤ 0, too many decimals, an incomplete round, a time in the future. */
  "feed-invalid",
  /** The token's feed was last updated longer ago than its heartbeat. */
  "feed-stale",
  /** A USD stablecoin more than 3 % away from 1 USD: not offered at all. */
  "depegged",
  /** The currency (not USD) has no feed on the token's network. */
  "currency-feed-not-configured",
  "currency-feed-unreadable",
  "currency-feed-invalid",
  "currency-feed-stale",
  /** The rate is too small to write with 8 decimals, or the amount would not fit a uint256. */
  "rate-out-of-range",
] as const;
export type QuoteUnavailableReason = (typeof QUOTE_UNAVAILABLE_REASONS)[number];

/** For the whole price: a currency we do not price in (not ISO 4217, or not one we know the minor units of). */
export const PRICING_REASONS = ["currency-unsupported"] as const;
export type PricingReason = (typeof PRICING_REASONS)[number];

export const pricingRefusal: Refusal<PricingReason> = refusal;
