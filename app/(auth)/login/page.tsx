import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { safeCallbackPath } from "@/lib/accounts/auth/safe-callback";
import { pageUser } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(params.callbackUrl);
  if (await pageUser()) redirect(callbackPath);
  return <LoginForm callbackPath={callbackPath} initialError={typeof params.error === "string" ? params.error : undefined} />;
}
