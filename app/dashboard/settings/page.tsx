import type { Metadata } from "next";
import { AccountCurrencyForm } from "@/components/account/account-currency-form";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { MembersTwoFactorForm } from "@/components/account/members-two-factor-form";
import { SignOutEverywhere } from "@/components/account/sign-out-everywhere";
import { TwoFactorSettings } from "@/components/account/two-factor-settings";
import { formatDate } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { RoleNote } from "@/components/dashboard/role-note";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { roleAllows } from "@/lib/accounts/members/roles";
import { getAccountSettings } from "@/lib/web/dashboard/account/account-settings";
import { ACCOUNT_CURRENCIES, loadSettingsPage } from "@/lib/web/dashboard/account/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { account, member, role, twoFactor, settings } = await withAccountPage("read", async ({ db, account, member, role }) => ({
    account,
    member,
    role,
    twoFactor: await loadSettingsPage(member),
    settings: await getAccountSettings(db, account.id),
  }));
  return (
    <>
      <PageHeader title="Settings" />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Account</CardTitle>
            <CardDescription>
              Signed in as <span className="font-medium text-foreground">{member.email}</span> · member since {formatDate(member.createdAt)}
            </CardDescription>
          </CardHeader>
        </Card>
        <Card id="account-currency">
          <CardHeader>
            <CardTitle>Reports currency</CardTitle>
            <CardDescription>
              The overview&apos;s totals, its volume chart and the payments CSV are shown in this currency, with the tokens received beside.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {roleAllows(role, "settings") ? (
              <AccountCurrencyForm current={account.accountCurrency} currencies={ACCOUNT_CURRENCIES} />
            ) : (
              <RoleNote role={role} permission="settings" />
            )}
          </CardContent>
        </Card>
        <Card id="members-two-factor">
          <CardHeader>
            <CardTitle>Members and two-factor</CardTitle>
            <CardDescription>
              {settings.membersNeedTwoFactor
                ? "On: every member who can move money, approve it, manage keys or choose payout addresses signs in with a code."
                : "Off: each member decides for themself whether to use two-factor authentication."}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {roleAllows(role, "members") ? (
              <MembersTwoFactorForm
                on={settings.membersNeedTwoFactor}
                ownTwoFactor={member.totpEnabledAt !== null}
                unenrolled={settings.membersWithoutTwoFactor}
              />
            ) : (
              <RoleNote role={role} permission="members" />
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Change password</CardTitle>
            <CardDescription>
              Every other browser and bearer token signed in with the old password is signed out; this browser stays signed in.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ChangePasswordForm email={member.email} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Two-factor authentication</CardTitle>
            <CardDescription>
              A code from an authenticator app, asked at sign-in and before money or keys leave your account.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <TwoFactorSettings status={twoFactor} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Sessions</CardTitle>
            <CardDescription>Lost a device, or signed in on a shared computer? End every session of this account at once.</CardDescription>
          </CardHeader>
          <CardContent className="grid">
            <SignOutEverywhere />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
