"use client";

import { Loader2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { useRequiredFilled } from "@/components/ui/use-required-filled";

const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  TwoFactorWrong: "That code is not right, or was used already. Enter the code your app shows now, or a recovery code.",
  RateLimited: "Too many sign-in attempts from your network. Wait a minute and try again.",
  SessionRequired: "Sign in to continue.",
};

export function LoginForm({ callbackPath, initialError }: { callbackPath: string; initialError?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | undefined>(
    initialError ? (MESSAGES[initialError] ?? "Sign-in failed. Try again.") : undefined,
  );
  const [pending, setPending] = useState(false);
  // Asked after the right password when the account has two-factor sign-in on.
  const [askCode, setAskCode] = useState(false);
  // Until the page is interactive a submit would bypass the handler: keep the button off till then.
  const hydrated = useHydrated();
  const { filled, formProps } = useRequiredFilled();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    try {
      // Only when asked: next-auth sends every option as a form field (an undefined one as "undefined").
      const code = askCode ? { code: String(form.get("code") ?? "") } : {};
      const result = await signIn("credentials", {
        redirect: false,
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        ...code,
        callbackUrl: callbackPath,
      });
      if (!result?.ok) {
        const reason = result?.status === 429 ? "RateLimited" : (result?.error ?? "");
        if (reason === "TwoFactorRequired") {
          setAskCode(true);
          return;
        }
        setError(MESSAGES[reason] ?? "Sign-in failed. Try again.");
        return;
      }
      router.replace(callbackPath);
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
        <h1 className="text-xl font-semibold tracking-tight">Sign in to your dashboard</h1>
        <CardDescription>Payments, withdrawals, tokens and API keys of your shop.</CardDescription>
      </CardHeader>
      <CardContent>
        <form {...formProps} onSubmit={submit} method="post" className="grid gap-4" noValidate>
          <FormError>{error}</FormError>
          <Field label="Email">
            {(control) => <Input {...control} name="email" type="email" autoComplete="email" required autoFocus />}
          </Field>
          <Field label="Password">
            {(control) => <Input {...control} name="password" type="password" autoComplete="current-password" required />}
          </Field>
          {askCode && (
            <Field label="Two-factor code" hint="The 6-digit code your authenticator app shows, or one of your recovery codes.">
              {(control) => <Input {...control} name="code" autoComplete="one-time-code" maxLength={11} required autoFocus />}
            </Field>
          )}
          <Button type="submit" disabled={pending || !hydrated || !filled} className="w-full">
            {pending && <Loader2 className="animate-spin" aria-hidden />}
            {pending ? "Signing in…" : "Sign in"}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          New to BSC Pay?{" "}
          <Link href="/signup" className="font-medium text-foreground underline-offset-4 hover:underline">
            Create an account
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
