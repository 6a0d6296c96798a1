/** Why an approval, or an approval rule, is refused (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const APPROVAL_REASONS = [
  /** The member who asked for the money out cannot approve it: a second member must. */
  "approver-is-requester",
  /** Approving needs a two-factor code: the approver must turn two-factor on first. */
  "approver-needs-two-factor",
  /** What it would send (destination, amount, items) is not what it was asked for with, or not what the approver confirmed. */
  "approval-content-changed",
  /** It was approved, rejected or expired already. */
  "approval-decided",
  /** Its time to be approved (72 h) is over. */
  "approval-expired",
  /** This kind of money out cannot be decided by this server yet. */
  "approval-kind-unsupported",
  /** A threshold that is not an amount of the token, or a per-day limit below the per-request one. */
  "approval-limit-invalid",
] as const;
export type ApprovalReason = (typeof APPROVAL_REASONS)[number];

export const approvalRefusal: Refusal<ApprovalReason> = refusal;
