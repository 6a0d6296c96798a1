import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignupForm } from "@/components/auth/signup-form";
import { getConfig } from "@/lib/base/config";
import { pageUser } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Create your account" };
export const dynamic = "force-dynamic";

export default async function SignupPage() {
  if (await pageUser()) redirect("/dashboard");
  return <SignupForm closed={getConfig().registration === "closed"} />;
}
