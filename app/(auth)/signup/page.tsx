import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignupForm } from "@/components/auth/signup-form";
import { currentUser } from "@/lib/auth/current-user";
import { getConfig } from "@/lib/config";

export const metadata: Metadata = { title: "Create your account" };
export const dynamic = "force-dynamic";

export default async function SignupPage() {
  if (await currentUser()) redirect("/dashboard");
  return <SignupForm closed={getConfig().registration === "closed"} />;
}
