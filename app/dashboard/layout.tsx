import type { Metadata } from "next";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardShell } from "@/components/dashboard/shell";
import { currentUser } from "@/lib/auth/current-user";
import { listNetworks } from "@/lib/chain/networks";

export const metadata: Metadata = { title: { default: "Dashboard", template: "%s · BSC Pay" }, robots: { index: false } };
export const dynamic = "force-dynamic";

const NETWORK_NAMES: Record<string, string> = { bsc: "BNB Smart Chain", "bsc-testnet": "BSC testnet", local: "Local chain" };

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/login");
  const networks = listNetworks().map((n) => NETWORK_NAMES[n.name] ?? n.name);
  return (
    <DashboardShell email={user.email} networkLabel={networks.length ? `Networks: ${networks.join(", ")}` : "No network configured"}>
      {children}
    </DashboardShell>
  );
}
