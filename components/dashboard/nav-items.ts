import { ArrowUpRight, Coins, CreditCard, Fuel, Globe, KeyRound, LayoutDashboard, Package, Settings } from "lucide-react";

export const NAV_ITEMS = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard, exact: true },
  { href: "/dashboard/payments", label: "Payments", icon: CreditCard },
  { href: "/dashboard/withdrawals", label: "Withdrawals", icon: ArrowUpRight },
  { href: "/dashboard/gas", label: "Gas usage", icon: Fuel },
  { href: "/dashboard/tokens", label: "Tokens", icon: Coins },
  { href: "/dashboard/domains", label: "Domains", icon: Globe },
  { href: "/dashboard/api-keys", label: "API keys", icon: KeyRound },
  { href: "/dashboard/package", label: "Package", icon: Package },
  { href: "/dashboard/settings", label: "Settings", icon: Settings },
] as const;
