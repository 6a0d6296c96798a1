import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignupForm } from "@/components/auth/signup-form";
import { safeCallbackPath } from "@/lib/accounts/auth/safe-callback";
import { getConfig } from "@/lib/base/config";
import { pageUser } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Create your account" };
export const dynamic = "force-dynamic";

/** `callbackUrl`: where to go once signed up (an invitation's page), on this site only. */
export default async function SignupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackPath = safeCallbackPath((await searchParams).callbackUrl);
  if (await pageUser()) redirect(callbackPath);
  return <SignupForm closed={getConfig().registration === "closed"} callbackPath={callbackPath} />;
}
