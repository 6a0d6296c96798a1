/** Why a change to a merchant's domains is refused (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const DOMAIN_REASONS = [
  "domain-origin-invalid",
  "domain-already-whitelisted",
  "domain-webhook-url-invalid",
  "domain-deletion-blocked",
  "payout-change-not-waiting",
  /** Revealing or rotating a webhook signing secret needs the member's two-factor code: it is off. */
  "webhook-secret-needs-two-factor",
] as const;
export type DomainReason = (typeof DOMAIN_REASONS)[number];

export const domainRefusal: Refusal<DomainReason> = refusal;
