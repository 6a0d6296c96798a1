import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignupForm } from "@/components/auth/signup-form";
import { safeCallbackPath } from "@/lib/accounts/auth/safe-callback";
import { getConfig } from "@/lib/base/config";
import { invitationContext } from "@/lib/web/dashboard/members/invitation-context";
import { pageUser, withPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Create your account" };
export const dynamic = "force-dynamic";

/** `callbackUrl`: where to go once signed up (an invitation's page, whose account and role the form names), on this site only. */
export default async function SignupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackPath = safeCallbackPath((await searchParams).callbackUrl);
  if (await pageUser()) redirect(callbackPath);
  // Opened from an invitation: the form says whom the visitor joins, as what.
  const { joining } = await withPage(async ({ db }) => ({ joining: await invitationContext(db, callbackPath) }));
  return <SignupForm closed={getConfig().registration === "closed"} callbackPath={callbackPath} joining={joining} />;
}
