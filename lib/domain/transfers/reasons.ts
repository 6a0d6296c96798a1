/** Why a payout (a withdrawal, or a refund's send) is refused on the spot (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const TRANSFER_REASONS = [
  /** The wallet lacks the tokens (net of its sends not yet mined); nothing was recorded. */
  "wallet-short-of-tokens",
  "wallet-short-of-gas",
  /** The transfer's gas estimate is above MAX_WITHDRAWAL_GAS. */
  "transfer-gas-above-limit",
  "transfer-would-revert",
  "rpc-failed",
] as const;
export type TransferReason = (typeof TRANSFER_REASONS)[number];

export const transferRefusal: Refusal<TransferReason> = refusal;
