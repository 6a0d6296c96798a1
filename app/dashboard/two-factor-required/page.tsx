import { ShieldAlert, ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { TwoFactorSettings } from "@/components/account/two-factor-settings";
import { PageHeader } from "@/components/dashboard/page-header";
import { ROLE_WORDS } from "@/components/members/role-words";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { loadSettingsPage } from "@/lib/web/dashboard/account/loaders";
import { withTwoFactorRequiredPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Two-factor required" };

/**
 * Where every page of an account sends a member it requires two-factor of, while they have none
 * (docs/design.md §26): why, and the enrolment itself. Their other accounts are unaffected (the
 * switcher stays). Once it is on (the recovery codes stored), the page says so and leads on.
 */
export default async function TwoFactorRequiredPage() {
  const { account, role, enrolOnly, twoFactor } = await withTwoFactorRequiredPage(async ({ account, member, role, enrolOnly }) => ({
    account,
    role,
    enrolOnly,
    twoFactor: await loadSettingsPage(member),
  }));
  return (
    <>
      <PageHeader title="Turn on two-factor authentication" />
      <div className="grid gap-6">
        {enrolOnly ? (
          <div data-testid="two-factor-required" className="flex gap-3 rounded-xl border border-warning/40 bg-warning/10 p-4 text-sm">
            <ShieldAlert className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden />
            <div className="grid gap-1">
              <p className="font-medium">
                <span className="[overflow-wrap:anywhere]">{account.email}</span> requires two-factor authentication of every{" "}
                {ROLE_WORDS[role].label.toLowerCase()}.
              </p>
              <p className="text-muted-foreground">
                Its owner asks a code from an app on your phone of everyone who can send money out, approve it, manage API keys or choose
                where money goes. Until you turn it on, this account&apos;s pages and actions stay closed to you and the API keys you made
                here are refused. Your other accounts are not affected.
              </p>
            </div>
          </div>
        ) : (
          <div data-testid="two-factor-done" className="flex flex-wrap items-start gap-3 rounded-xl border p-4 text-sm">
            <ShieldCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden />
            <p className="min-w-0 flex-1">
              <span className="font-medium">Nothing is held back.</span>{" "}
              <span className="text-muted-foreground">
                Two-factor authentication is on for you (or <span className="[overflow-wrap:anywhere]">{account.email}</span> does not
                require it): the account&apos;s pages and your API keys work again.
              </span>
            </p>
            <Link href="/dashboard" className={buttonVariants({ size: "sm" })}>
              Continue to the dashboard
            </Link>
          </div>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Two-factor authentication</CardTitle>
            <CardDescription>
              Scan the key with an authenticator app, confirm a code and your password, and keep the recovery codes.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <TwoFactorSettings status={twoFactor} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
