/**
 * The Approvals page's words for who can approve (client-safe: no database, no Node.js module): the
 * warning before a threshold is saved that nobody could approve yet, and what a waiting row offers
 * instead of a button its viewer cannot use.
 */

import { rolesWith } from "../../../accounts/roles/roles";
import type { Approvers } from "../../../domain/approvals/approvers";

export const SETTINGS_TWO_FACTOR = { href: "/dashboard/settings", label: "Turn on two-factor →" } as const;
export const INVITE_APPROVER = { href: "/dashboard/members", label: "Invite an approver →" } as const;

/** "an owner, admin or finance member": who may hold `approve`. */
export function approverRoles(): string {
  const roles = rolesWith("approve");
  const list = roles.length > 1 ? `${roles.slice(0, -1).join(", ")} or ${roles.at(-1)}` : (roles[0] ?? "");
  return `${/^[aeiou]/.test(list) ? "an" : "a"} ${list} member`;
}

export interface ApproverWarning {
  text: string;
  link: { href: string; label: string };
}

/**
 * What the thresholds card says before a threshold is saved: nobody can approve yet (no member who
 * may approve has two-factor on), or only one person can, whose own requests then wait until they
 * expire. Null: at least two can, so every request has someone to approve it.
 */
export function approverWarning(approvers: Approvers, viewerId: number): ApproverWarning | null {
  const viewerCouldApprove = approvers.withoutTwoFactor.some((a) => a.userId === viewerId);
  const link = viewerCouldApprove ? SETTINGS_TWO_FACTOR : INVITE_APPROVER;
  const [only, ...others] = approvers.eligible;
  if (!only)
    return {
      text: `Nobody can approve yet: approving needs ${approverRoles()} with two-factor authentication on. Money out above a threshold would wait until it expires after 72 h.`,
      link,
    };
  if (others.length > 0) return null;
  const you = only.userId === viewerId;
  return {
    text: you
      ? "Only you can approve, so what you ask for yourself would wait until it expires after 72 h: a second approver needs two-factor on."
      : `Only ${only.email} can approve, so what they ask for themselves would wait until it expires after 72 h.`,
    link,
  };
}

/** A waiting row the viewer may approve but cannot yet: approving is confirmed with a two-factor code. */
export const NEEDS_TWO_FACTOR = "Approving is confirmed with a two-factor code.";
/** A waiting row nobody but its requester could approve. */
export const NOBODY_ELSE = "Nobody else can approve it yet.";
