"use client";

import { FlaskConical, Menu } from "lucide-react";
import Link from "next/link";
import { type ReactNode, useState } from "react";
import { Logo } from "@/components/brand/logo";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import type { networkMode } from "@/lib/web/dashboard/shared/wording";
import { AccountSwitcher, type SwitcherAccount } from "./account-switcher";
import { DashboardNav } from "./nav";
import { UserMenu } from "./user-menu";

/** Sidebar on wide screens, a top bar with a menu on phones; content in a readable column. */
export function DashboardShell({
  email,
  network,
  accounts,
  current,
  badges,
  children,
}: {
  email: string;
  network: ReturnType<typeof networkMode>;
  /** The accounts the user belongs to, and the one the dashboard acts in. */
  accounts: SwitcherAccount[];
  current: SwitcherAccount;
  /** Counts beside nav items (approvals waiting). */
  badges?: Partial<Record<"approvals", number>>;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div className="min-h-dvh bg-muted/30 lg:grid lg:grid-cols-[15rem_1fr]">
      <aside className="hidden border-r bg-background lg:flex lg:min-h-dvh lg:flex-col lg:gap-6 lg:px-3 lg:py-4">
        <Link
          href="/dashboard"
          className="rounded-md px-2 focus-visible:outline-2 focus-visible:outline-ring"
          aria-label="BSC Pay dashboard"
        >
          <Logo />
        </Link>
        <AccountSwitcher accounts={accounts} current={current} />
        <DashboardNav role={current.role} badges={badges} />
      </aside>
      <div className="flex min-w-0 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:px-6">
          <Dialog open={open} onOpenChange={setOpen}>
            <DialogTrigger asChild>
              <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open navigation">
                <Menu aria-hidden />
              </Button>
            </DialogTrigger>
            <DialogContent className="top-0 left-0 h-dvh max-h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 content-start rounded-none rounded-r-xl">
              <DialogTitle className="sr-only">Navigation</DialogTitle>
              <DialogDescription className="sr-only">Pages of the dashboard</DialogDescription>
              <Logo />
              <AccountSwitcher accounts={accounts} current={current} />
              <DashboardNav role={current.role} badges={badges} onNavigate={() => setOpen(false)} />
            </DialogContent>
          </Dialog>
          <Link href="/dashboard" className="whitespace-nowrap lg:hidden" aria-label="BSC Pay dashboard">
            <Logo />
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-1">
            <span
              className="mr-1 inline-flex min-w-0 items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-medium"
              data-testid="network"
              title={`Network: ${network.label}`}
            >
              <span className={`size-1.5 shrink-0 rounded-full ${network.testMode === "none" ? "bg-success" : "bg-warning"}`} aria-hidden />
              <span className="sr-only">Network: </span>
              <span className="truncate max-sm:sr-only">{network.label}</span>
              <span className="truncate sm:hidden" aria-hidden>
                {network.shortLabel}
              </span>
            </span>
            <ThemeToggle />
            <UserMenu email={email} />
          </div>
        </header>
        {network.testMode !== "none" && (
          <div
            role="note"
            data-testid="test-mode"
            className="flex items-center justify-center gap-2 border-b border-warning/40 bg-warning/15 px-4 py-2 text-center text-sm font-medium"
          >
            <FlaskConical className="size-4 shrink-0" aria-hidden />
            {network.testMode === "all"
              ? "Test mode: payments use test tokens, not real money."
              : `Test mode on ${network.testNetworks.join(" and ")}: payments there use test tokens, not real money.`}
          </div>
        )}
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 sm:px-6 lg:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
