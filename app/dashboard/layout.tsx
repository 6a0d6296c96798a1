import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardShell } from "@/components/dashboard/shell";
import { listNetworks } from "@/lib/engine/chain/networks";
import { dashboardShell } from "@/lib/web/dashboard/shared/shell";
import { accountName, networkMode } from "@/lib/web/dashboard/shared/wording";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · BSC Pay" }, robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const found = await dashboardShell();
  if (!found) redirect("/login");
  const { member, principal, accounts, awaiting } = found;
  // Every user owns their home account, so a user in no account at all is one whose owner row is gone.
  if (!principal) redirect("/login");
  const current = accounts.find((a) => a.accountId === principal.account.id) ?? {
    accountId: principal.account.id,
    label: accountName(principal.account.email),
    role: principal.role,
  };
  return (
    <DashboardShell
      email={member.email}
      network={networkMode(listNetworks().map((n) => n.name))}
      accounts={accounts}
      current={current}
      badges={{ approvals: awaiting }}
    >
      {children}
    </DashboardShell>
  );
}
