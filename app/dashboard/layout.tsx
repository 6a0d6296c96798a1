import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardShell } from "@/components/dashboard/shell";
import { listNetworks } from "@/lib/engine/chain/networks";
import { networkMode } from "@/lib/web/dashboard/wording";
import { pageUser } from "@/lib/web/http/page";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · BSC Pay" }, robots: { index: false } };
export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await pageUser();
  if (!user) redirect("/login");
  return (
    <DashboardShell email={user.email} network={networkMode(listNetworks().map((n) => n.name))}>
      {children}
    </DashboardShell>
  );
}
