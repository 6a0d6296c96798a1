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
  /** The action needs the acting member's own two-factor (a key with a money scope, the account's two-factor rule): they have none. */
  "two-factor-required",
  /**
   * The account requires two-factor of the member's role (its setting "members need two-factor")
   * and they have none: in this account they may only enrol; their API keys act for nobody meanwhile.
   */
  "two-factor-required-by-account",
] as const;
export type AccountReason = (typeof ACCOUNT_REASONS)[number];

export const accountRefusal: Refusal<AccountReason> = refusal;
