import type { Metadata } from "next";
import Link from "next/link";
import { AcceptInvitation } from "@/components/members/accept-invitation";
import { ROLE_WORDS } from "@/components/members/role-words";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { previewInvitation } from "@/lib/accounts/members/invitations";
import { AppError } from "@/lib/base/errors";
import { pageUser, withPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Invitation", robots: { index: false } };
export const dynamic = "force-dynamic";

/** An invitation link: who invites, with which role; Join once signed in (or after creating a login). */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await withPage(async ({ db }) => {
    try {
      return { invitation: await previewInvitation(db, token), problem: null };
    } catch (error) {
      if (error instanceof AppError && error.reason?.startsWith("invitation-")) return { invitation: null, problem: error.message };
      throw error;
    }
  });
  const user = await pageUser();
  const back = `/invite/${encodeURIComponent(token)}`;
  return (
    <Card className="w-full max-w-md" data-testid="invitation">
      <CardHeader className="gap-2 pb-4">
        <h1 className="text-xl font-semibold tracking-tight">{found.invitation ? "You are invited" : "This invitation cannot be used"}</h1>
        <CardDescription>
          {found.invitation ? (
            <>
              Join <span className="font-medium text-foreground break-all">{found.invitation.accountLabel}</span> on BSC Pay as{" "}
              <span className="font-medium text-foreground">{ROLE_WORDS[found.invitation.role].label}</span>.{" "}
              {ROLE_WORDS[found.invitation.role].can}
            </>
          ) : (
            `${found.problem?.charAt(0).toUpperCase()}${found.problem?.slice(1)}.`
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {found.invitation &&
          (user ? (
            <>
              <p className="text-sm text-muted-foreground">
                Signed in as <span className="font-medium break-all text-foreground">{user.email}</span>. Your own account stays yours;
                switch between them in the dashboard.
              </p>
              <AcceptInvitation token={token} />
            </>
          ) : (
            <>
              <Link href={`/signup?callbackUrl=${encodeURIComponent(back)}`} className={buttonVariants()}>
                Create a login
              </Link>
              <Link href={`/login?callbackUrl=${encodeURIComponent(back)}`} className={buttonVariants({ variant: "outline" })}>
                I have a login — sign in
              </Link>
            </>
          ))}
        {!found.invitation && (
          <Link href={user ? "/dashboard" : "/login"} className={buttonVariants({ variant: "outline" })}>
            {user ? "Go to the dashboard" : "Sign in"}
          </Link>
        )}
      </CardContent>
    </Card>
  );
}
