/** Why a plan's daily limits refuse what the merchant asks (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const LIMIT_REASONS = [
  "daily-withdrawals-used-up",
  "daily-gas-budget-used-up",
  /** A payout batch whose estimated gas alone is more than a whole day's budget: split it. */
  "payout-gas-above-budget",
  "domain-limit-reached",
] as const;
export type LimitReason = (typeof LIMIT_REASONS)[number];

export const limitRefusal: Refusal<LimitReason> = refusal;
