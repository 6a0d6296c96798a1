import { ShieldAlert } from "lucide-react";
import type { Metadata } from "next";
import { TwoFactorSettings } from "@/components/account/two-factor-settings";
import { PageHeader } from "@/components/dashboard/page-header";
import { ROLE_WORDS } from "@/components/members/role-words";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { loadSettingsPage } from "@/lib/web/dashboard/pages";
import { withTwoFactorRequiredPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Two-factor required" };

/**
 * Where every page of an account sends a member it requires two-factor of, while they have none
 * (DESIGN.md §26): why, and the enrolment itself. Their other accounts are unaffected (the
 * switcher stays); once it is on, the page sends them on to the overview.
 */
export default async function TwoFactorRequiredPage() {
  const { account, role, twoFactor } = await withTwoFactorRequiredPage(async ({ account, member, role }) => ({
    account,
    role,
    twoFactor: await loadSettingsPage(member),
  }));
  return (
    <>
      <PageHeader title="Turn on two-factor authentication" />
      <div className="grid gap-6">
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
