import { Lock } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/dashboard/empty-state";
import { ROLE_WORDS, roleNames } from "@/components/members/role-words";
import { buttonVariants } from "@/components/ui/button";
import { PERMISSIONS, type Permission, rolesWith } from "@/lib/accounts/members/roles";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "No access" };

/** Where a page sends a role that may not open it: says what is missing and who has it. */
export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const { need } = await searchParams;
  const { role } = await withAccountPage("read", async ({ role }) => ({ role }));
  const permission = need && need in PERMISSIONS ? (need as Permission) : null;
  return (
    <EmptyState
      icon={Lock}
      title="Your role cannot open this page"
      description={
        permission
          ? `Your role here is ${ROLE_WORDS[role].label}. To ${PERMISSIONS[permission]}, you need the ${roleNames(rolesWith(permission))} role: ask the account's owner.`
          : `Your role here is ${ROLE_WORDS[role].label}. Ask the account's owner for another role.`
      }
      action={
        <Link href="/dashboard" className={buttonVariants({ variant: "outline" })}>
          Back to the overview
        </Link>
      }
    />
  );
}
