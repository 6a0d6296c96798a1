/** Why a payout batch is refused (docs/design.md §22); chain refusals reuse lib/domain/transfers' reasons. */

import { type Refusal, refusal } from "../../base/errors";

export const PAYOUT_BATCH_REASONS = [
  /** One or more items are invalid; `details` lists each by `items.<index>.<field>`; nothing was recorded. */
  "payout-items-invalid",
  "payout-batch-not-found",
  /** release / reject of a batch that is not awaiting approval. */
  "payout-batch-not-awaiting-approval",
] as const;
export type PayoutBatchReason = (typeof PAYOUT_BATCH_REASONS)[number];

export const payoutBatchRefusal: Refusal<PayoutBatchReason> = refusal;
