import type { Metadata } from "next";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { formatDate } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { currentUser } from "@/lib/auth/current-user";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const user = (await currentUser())!;
  return (
    <>
      <PageHeader title="Settings" />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Account</CardTitle>
            <CardDescription>
              Signed in as <span className="font-medium text-foreground">{user.email}</span> · member since {formatDate(user.createdAt)}
            </CardDescription>
          </CardHeader>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Change password</CardTitle>
            <CardDescription>Other browsers stay signed in until their session ends.</CardDescription>
          </CardHeader>
          <CardContent>
            <ChangePasswordForm />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
