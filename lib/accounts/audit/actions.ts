/**
 * Every action the audit log records (docs/design.md §24), as dotted `area.verb` names. A call site
 * names one of these; the list is what the API validates `action` against and what the dashboard's
 * filter offers, each with the words it shows.
 */

export const AUDIT_ACTIONS = {
  /** A member signed in (dashboard or bearer token). */
  "auth.sign_in": "Signed in",
  /** An invitation to join the account was sent. */
  "member.invited": "Member invited",
  /** An invitation was revoked: by hand, or because the member who made it left or handed the ownership over. */
  "invitation.revoked": "Invitation revoked",
  /** A person joined the account (accepted an invitation). */
  "member.added": "Member added",
  /** A member was removed from the account, or left it. */
  "member.removed": "Member removed",
  /** A member's role changed; before/after carry the roles. */
  "member.role_changed": "Member role changed",
  /** An API key was issued (its name, prefix, kind and scopes; never the key). */
  "api_key.created": "API key created",
  /** An API key was revoked: by hand, or with its creator's membership (after.reason: member-removed, role-reduced). */
  "api_key.revoked": "API key revoked",
  /** A change of its creator's role took scopes from an API key; before/after carry the scopes. */
  "api_key.scopes_reduced": "API key scopes reduced",
  /** A domain's payout address (forward target) changed. */
  "domain.payout_target_changed": "Payout address changed",
  /** A domain's webhook URL was set, changed or removed. */
  "domain.webhook_changed": "Webhook changed",
  /** A domain's webhook signing secret was shown to a member on request (never the secret itself). */
  "domain.webhook_secret_revealed": "Webhook secret revealed",
  /** A domain's webhook signing secret was replaced (the old one signs 24 h more). */
  "domain.webhook_secret_rotated": "Webhook secret rotated",
  /** A withdrawal was asked for (sent at once, or awaiting approval). */
  "withdrawal.requested": "Withdrawal requested",
  /** A second member approved a withdrawal. */
  "withdrawal.approved": "Withdrawal approved",
  /** A withdrawal awaiting approval was rejected (or expired). */
  "withdrawal.rejected": "Withdrawal rejected",
  /** A refund was asked for. */
  "refund.requested": "Refund requested",
  /** A new claim link was issued for a refund (the old one stops working; never the link itself). */
  "refund.claim_link_issued": "Refund link issued",
  /** A second member approved a refund. */
  "refund.approved": "Refund approved",
  /** A refund awaiting approval was rejected (or expired). */
  "refund.rejected": "Refund rejected",
  /** A payout batch was asked for. */
  "payout.requested": "Payout requested",
  /** A second member approved a payout batch. */
  "payout.approved": "Payout approved",
  /** A payout batch awaiting approval was rejected (or expired). */
  "payout.rejected": "Payout rejected",
  /** An approval threshold (per request or per day, per token) changed. */
  "approval_policy.changed": "Approval policy changed",
  /** A member turned two-factor sign-in on. */
  "two_factor.enabled": "Two-factor enabled",
  /** A member turned two-factor sign-in off. */
  "two_factor.disabled": "Two-factor disabled",
  /** A member changed their password. */
  "password.changed": "Password changed",
  /** An account setting changed (e.g. the account currency); before/after carry the settings. */
  "account.settings_changed": "Settings changed",
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The action names, in the order above (zod enums and the dashboard's select). */
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

export function isAuditAction(name: string): name is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, name);
}

/** The words a page shows for an action; an action recorded by a newer release shows its own name. */
export function auditActionLabel(name: string): string {
  return isAuditAction(name) ? AUDIT_ACTIONS[name] : name;
}
