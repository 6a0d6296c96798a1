/** Why an account's sign-in, sign-up or security settings refuse a request (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const ACCOUNT_REASONS = [
  "credentials-invalid",
  "sign-in-required",
  "bearer-token-invalid",
  "token-revoked",
  "account-gone",
  "cross-site-refused",
  "registration-closed",
  "email-taken",
  "password-wrong",
  "two-factor-code-required",
  "two-factor-code-wrong",
  "two-factor-already-on",
  "two-factor-not-on",
  /** A code to finish turning two-factor on, when none is expected any more. */
  "two-factor-setup-expired",
] as const;
export type AccountReason = (typeof ACCOUNT_REASONS)[number];

export const accountRefusal: Refusal<AccountReason> = refusal;
