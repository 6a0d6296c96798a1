"use client";

import { Loader2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { ROLE_WORDS } from "@/components/members/role-words";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useRequiredFilled } from "@/components/ui/use-required-filled";
import type { MemberRole } from "@/lib/accounts/members/roles";
import { signUpAction } from "@/lib/web/dashboard/account/actions";

/** The invitation a visitor signs up to accept (its page sent them here). */
export interface Joining {
  accountLabel: string;
  role: Exclude<MemberRole, "owner">;
}

export function SignupForm({
  closed,
  callbackPath = "/dashboard",
  joining = null,
}: {
  closed: boolean;
  callbackPath?: string;
  joining?: Joining | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  // Until the page is interactive a submit would bypass the handler: keep the button off till then.
  const hydrated = useHydrated();
  const { filled, formProps } = useRequiredFilled();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    try {
      const result = await signUpAction({ email, password });
      if (!result.ok) {
        setFieldErrors(result.fieldErrors ?? {});
        setError(
          result.code === "RATE_LIMITED"
            ? "Too many sign-ups from your network. Try again later."
            : result.fieldErrors
              ? undefined
              : result.error,
        );
        return;
      }
      const signedIn = await signIn("credentials", { redirect: false, email, password, callbackUrl: callbackPath });
      router.replace(signedIn?.ok ? callbackPath : "/login");
      router.refresh();
    } catch {
      setError("We could not reach the server. Check your connection and try again.");
    } finally {
      setPending(false);
    }
  }

  return (
    <Card className="w-full max-w-sm">
      <CardHeader className="gap-2 pb-4">
        {joining ? (
          <>
            <h1 className="text-xl font-semibold tracking-tight">Create a login to join</h1>
            <CardDescription data-testid="joining">
              Join <span className="font-medium text-foreground break-all">{joining.accountLabel}</span> as{" "}
              <span className="font-medium text-foreground">{ROLE_WORDS[joining.role].label}</span>. {ROLE_WORDS[joining.role].can} Once
              your login exists, the invitation&apos;s page asks you to confirm.
            </CardDescription>
          </>
        ) : (
          <>
            <h1 className="text-xl font-semibold tracking-tight">Create your account</h1>
            <CardDescription>Accept BEP-20 stablecoins on BNB Smart Chain, forwarded to your wallet.</CardDescription>
          </>
        )}
      </CardHeader>
      <CardContent>
        {closed ? (
          <FormError>Sign-up is closed on this gateway. Ask its operator for an account.</FormError>
        ) : (
          <form {...formProps} onSubmit={submit} method="post" className="grid gap-4" noValidate>
            <FormError>{error}</FormError>
            <Field label="Email" error={fieldErrors.email}>
              {(control) => <Input {...control} name="email" type="email" autoComplete="email" required autoFocus />}
            </Field>
            <Field label="Password" hint="At least 10 characters." error={fieldErrors.password}>
              {(control) => <Input {...control} name="password" type="password" autoComplete="new-password" minLength={10} required />}
            </Field>
            <Button type="submit" disabled={pending || !hydrated || !filled} className="w-full">
              {pending && <Loader2 className="animate-spin" aria-hidden />}
              {pending ? "Creating your account…" : "Create account"}
            </Button>
          </form>
        )}
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Already have an account?{" "}
          <Link
            href={callbackPath === "/dashboard" ? "/login" : `/login?callbackUrl=${encodeURIComponent(callbackPath)}`}
            className="font-medium text-foreground underline-offset-4 hover:underline"
          >
            Sign in
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
