"use client";

import { Check, ChevronsUpDown } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import type { MemberRole } from "@/lib/accounts/members/roles";
import { switchAccountAction } from "@/lib/web/dashboard/members/actions";

export interface SwitcherAccount {
  accountId: number;
  label: string;
  role: MemberRole;
}

/** Which account the dashboard acts in; a user in one account sees its name and role only. */
export function AccountSwitcher({ accounts, current }: { accounts: SwitcherAccount[]; current: SwitcherAccount }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const choose = (accountId: number) =>
    start(async () => {
      const result = await switchAccountAction(accountId);
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      router.push("/dashboard");
      router.refresh();
    });
  const summary = (
    <span className="grid min-w-0 text-left leading-tight">
      <span className="truncate text-sm font-medium">{current.label}</span>
      <span className="text-xs text-muted-foreground capitalize">{current.role}</span>
    </span>
  );
  if (accounts.length < 2)
    return (
      <div className="rounded-md border px-2.5 py-1.5" data-testid="account-current">
        {summary}
      </div>
    );
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="outline"
          className="h-auto w-full justify-between gap-2 px-2.5 py-1.5"
          disabled={pending}
          data-testid="account-switcher"
        >
          {summary}
          <span className="sr-only">Switch account</span>
          <ChevronsUpDown className="size-4 shrink-0 text-muted-foreground" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        <DropdownMenuLabel>Accounts</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {accounts.map((a) => (
          <DropdownMenuItem key={a.accountId} onSelect={() => a.accountId !== current.accountId && choose(a.accountId)}>
            <span className="grid min-w-0 flex-1 leading-tight">
              <span className="truncate">{a.label}</span>
              <span className="text-xs text-muted-foreground capitalize">{a.role}</span>
            </span>
            {a.accountId === current.accountId && <Check className="size-4" aria-label="current" />}
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
