/** Why a withdrawal (or a refund's send, which is one) is refused or failed on the spot (DESIGN.md §22). */

import { type Refusal, refusal } from "../errors";

export const WITHDRAWAL_REASONS = [
  /** The withdrawal wallet lacks the tokens (net of its sends not yet mined); nothing was recorded. */
  "wallet-short-of-tokens",
  "wallet-short-of-gas",
  /** The transfer's gas estimate is above MAX_WITHDRAWAL_GAS. */
  "transfer-gas-above-limit",
  "transfer-would-revert",
  "rpc-failed",
  /** Sent, and the network refused it. */
  "withdrawal-failed",
] as const;
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number];

export const withdrawalRefusal: Refusal<WithdrawalReason> = refusal;
