import {
  ArrowUpRight,
  BookOpen,
  Coins,
  CreditCard,
  Fuel,
  Globe,
  KeyRound,
  LayoutDashboard,
  Link2,
  type LucideIcon,
  Package,
  ScrollText,
  Send,
  Settings,
  ShieldCheck,
  Users,
  Webhook,
} from "lucide-react";
import type { Permission } from "@/lib/accounts/members/roles";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  /** Active only on this exact path (the overview), not on the pages below it. */
  exact?: boolean;
  /** Shown only to roles that hold it (default: read, everyone). */
  permission?: Permission;
  /** A count shown beside the label (what waits for the member). */
  badge?: "approvals";
}

/**
 * The sidebar, in groups. Settings (password, two-factor, sessions) lives here only: the account
 * menu in the top bar holds who is signed in and Sign out.
 */
export const NAV_GROUPS: { label: string | null; items: NavItem[] }[] = [
  {
    label: null,
    items: [
      { href: "/dashboard", label: "Overview", icon: LayoutDashboard, exact: true },
      { href: "/dashboard/payments", label: "Payments", icon: CreditCard },
      { href: "/dashboard/links", label: "Payment links", icon: Link2 },
      { href: "/dashboard/withdrawals", label: "Withdrawals", icon: ArrowUpRight },
      { href: "/dashboard/payouts", label: "Payouts", icon: Send },
      { href: "/dashboard/gas", label: "Gas usage", icon: Fuel },
      { href: "/dashboard/tokens", label: "Tokens", icon: Coins },
      { href: "/dashboard/domains", label: "Domains", icon: Globe },
      { href: "/dashboard/plan", label: "Plan", icon: Package },
      { href: "/dashboard/settings", label: "Settings", icon: Settings },
    ],
  },
  {
    label: "Team",
    items: [
      { href: "/dashboard/members", label: "Members", icon: Users },
      { href: "/dashboard/approvals", label: "Approvals", icon: ShieldCheck, badge: "approvals" },
      { href: "/dashboard/audit", label: "Audit log", icon: ScrollText, permission: "audit" },
    ],
  },
  {
    label: "Developers",
    items: [
      { href: "/dashboard/api-keys", label: "API keys", icon: KeyRound },
      { href: "/dashboard/webhooks", label: "Webhooks", icon: Webhook },
      { href: "/docs", label: "Docs", icon: BookOpen },
    ],
  },
];
