/** Why a member's request about an account, its members or its invitations is refused (docs/design.md §22). */

import { type Refusal, refusal } from "../../base/errors";

export const MEMBER_REASONS = [
  /** The member's role does not hold the permission the request needs. */
  "role-forbids",
  /** X-Account-Id (or the dashboard's chosen account) names an account the user is not a member of. */
  "not-a-member",
  /** The user belongs to no account any more. */
  "no-account",
  "account-id-invalid",
  "invitation-invalid",
  "invitation-expired",
  "invitation-used",
  "already-a-member",
  /** The owner cannot be removed or demoted; hand the ownership over first. */
  "owner-is-fixed",
  "member-not-found",
  /** Ownership goes to a member who has two-factor on. */
  "new-owner-needs-two-factor",
] as const;
export type MemberReason = (typeof MEMBER_REASONS)[number];

export const memberRefusal: Refusal<MemberReason> = refusal;
