/** Why a withdrawal (or a refund's send, which is one) is refused or failed on the spot (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";
import { TRANSFER_REASONS } from "../transfers/reasons";

export const WITHDRAWAL_REASONS = [
  ...TRANSFER_REASONS,
  /** Sent, and the network refused it. */
  "withdrawal-failed",
] as const;
export type WithdrawalReason = (typeof WITHDRAWAL_REASONS)[number];

export const withdrawalRefusal: Refusal<WithdrawalReason> = refusal;
