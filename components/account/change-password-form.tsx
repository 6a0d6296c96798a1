"use client";

import { Loader2 } from "lucide-react";
import { signIn } from "next-auth/react";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useRequiredFilled } from "@/components/ui/use-required-filled";
import { changePasswordAction } from "@/lib/web/dashboard/account/actions";

/**
 * A changed password ends every session issued before it, this browser's too: the form signs this
 * browser in again with the new password, so only the others are signed out.
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const [pending, start] = useTransition();
  const { filled, formProps } = useRequiredFilled();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    start(async () => {
      const newPassword = String(data.get("newPassword") ?? "");
      const result = await changePasswordAction({ currentPassword: String(data.get("currentPassword") ?? ""), newPassword });
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setError(result.fieldErrors ? undefined : result.error);
        return;
      }
      setErrors({});
      setError(undefined);
      form.reset();
      const renewed = await signIn("credentials", { redirect: false, email, password: newPassword });
      if (!renewed?.ok) {
        window.location.assign("/login");
        return;
      }
      toast.success("Password changed. Other browsers and bearer tokens are signed out.");
    });
  };
  return (
    <form {...formProps} onSubmit={submit} method="post" className="grid max-w-sm gap-4" noValidate>
      <FormError>{error}</FormError>
      <Field label="Current password" error={errors.currentPassword}>
        {(control) => <Input {...control} name="currentPassword" type="password" autoComplete="current-password" required />}
      </Field>
      <Field label="New password" error={errors.newPassword} hint="At least 10 characters.">
        {(control) => <Input {...control} name="newPassword" type="password" autoComplete="new-password" minLength={10} required />}
      </Field>
      <Button type="submit" disabled={pending || !filled} className="justify-self-start">
        {pending && <Loader2 className="animate-spin" aria-hidden />} Change password
      </Button>
    </form>
  );
}
