import type { MemberRole } from "@/lib/accounts/members/roles";

/** How the dashboard names each role and says what it may do. */
export const ROLE_WORDS: Record<MemberRole, { label: string; can: string }> = {
  owner: { label: "Owner", can: "Everything, including members, payout addresses and approval rules." },
  admin: { label: "Admin", can: "Everything except members, payout addresses and approval rules." },
  finance: { label: "Finance", can: "Withdrawals, refunds, payouts, approvals, payments and reports." },
  developer: { label: "Developer", can: "API keys, webhooks and domains." },
  viewer: { label: "Viewer", can: "Sees everything, changes nothing." },
};

/** Roles named as a sentence lists them: "Owner", "Owner or Admin", "Owner, Admin or Finance". */
export function roleNames(roles: readonly MemberRole[]): string {
  const names = roles.map((role) => ROLE_WORDS[role].label);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}
