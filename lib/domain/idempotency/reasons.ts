/** Why an Idempotency-Key is refused (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const IDEMPOTENCY_REASONS = ["idempotency-key-invalid", "idempotency-key-reused"] as const;
export type IdempotencyReason = (typeof IDEMPOTENCY_REASONS)[number];

export const idempotencyRefusal: Refusal<IdempotencyReason> = refusal;
