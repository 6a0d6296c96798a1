/** Why an API key is refused, or cannot be made (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const API_KEY_REASONS = [
  "api-key-missing",
  "api-key-invalid",
  "api-key-scope-missing",
  "api-key-scope-not-allowed",
  "api-key-scopes-empty",
  "api-key-limit-reached",
  /**
   * A member asked for a scope their role does not hold (docs/design.md §26), or a key was used for
   * something its creator's current role may not do (merchantWallet needs payout-targets).
   */
  "scope-exceeds-role",
] as const;
export type ApiKeyReason = (typeof API_KEY_REASONS)[number];

export const apiKeyRefusal: Refusal<ApiKeyReason> = refusal;
