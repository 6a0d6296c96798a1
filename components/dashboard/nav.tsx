"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";
import { type MemberRole, roleAllows } from "@/lib/accounts/members/roles";
import { NAV_GROUPS } from "./nav-items";

export function DashboardNav({
  role,
  badges = {},
  onNavigate,
}: {
  role: MemberRole;
  badges?: Partial<Record<"approvals", number>>;
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  const groups = NAV_GROUPS.map((g) => ({ ...g, items: g.items.filter((i) => roleAllows(role, i.permission ?? "read")) })).filter(
    (g) => g.items.length > 0,
  );
  return (
    <nav aria-label="Dashboard" className="grid gap-4">
      {groups.map((group) => (
        <div key={group.label ?? "main"} className="grid gap-0.5">
          {group.label && (
            <p id={`nav-${group.label}`} className="px-2.5 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
              {group.label}
            </p>
          )}
          <ul className="grid gap-0.5" aria-labelledby={group.label ? `nav-${group.label}` : undefined}>
            {group.items.map(({ href, label, icon: Icon, exact, badge }) => {
              const count = badge ? (badges[badge] ?? 0) : 0;
              const active = exact ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
              return (
                <li key={href}>
                  <Link
                    href={href}
                    onClick={onNavigate}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring",
                      active && "bg-accent text-foreground",
                    )}
                  >
                    <Icon className="size-4" aria-hidden />
                    {label}
                    {count > 0 && (
                      <span
                        className="ml-auto rounded-full bg-primary px-1.5 py-0.5 text-xs leading-none font-semibold text-primary-foreground tabular-nums"
                        data-testid={`nav-badge-${badge}`}
                      >
                        {count}
                        <span className="sr-only"> waiting</span>
                      </span>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
