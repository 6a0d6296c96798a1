"use client";

import { Loader2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { formatDateTime } from "@/components/dashboard/format";
import { Button } from "@/components/ui/button";
import { Field, FormError } from "@/components/ui/field";
import { Input, NativeSelect } from "@/components/ui/input";
import { inviteMemberAction } from "@/lib/web/dashboard/members/actions";
import { ROLE_WORDS } from "./role-words";

/** Makes an invitation link and shows it this once: no e-mail is sent, the inviter passes it on. */
export function InviteMember() {
  const [link, setLink] = useState<{ url: string; role: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, start] = useTransition();
  const router = useRouter();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    start(async () => {
      const result = await inviteMemberAction({ role: form.get("role"), note: String(form.get("note") ?? "") || undefined });
      if (!result.ok) {
        setError(result.fieldErrors ? undefined : result.error);
        setFieldErrors(result.fieldErrors ?? {});
        return;
      }
      setError(undefined);
      setFieldErrors({});
      setLink({ url: result.data.url, role: result.data.role, expiresAt: result.data.expiresAt });
      router.refresh();
    });
  };
  return (
    <div className="grid gap-4">
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[12rem_1fr_auto] sm:items-start" noValidate>
        <Field label="Role" error={fieldErrors.role}>
          {(control) => (
            <NativeSelect {...control} name="role" defaultValue="viewer" data-testid="invite-role">
              {(["admin", "finance", "developer", "viewer"] as const).map((role) => (
                <option key={role} value={role}>
                  {ROLE_WORDS[role].label}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field label="For (optional)" hint="A name or e-mail, for your own list." error={fieldErrors.note}>
          {(control) => <Input {...control} name="note" maxLength={200} placeholder="e.g. Ana, bookkeeping" />}
        </Field>
        <Button type="submit" disabled={pending} className="justify-self-start sm:mt-[1.625rem]">
          {pending && <Loader2 className="animate-spin" aria-hidden />} Create link
        </Button>
      </form>
      <FormError>{error}</FormError>
      {link && (
        <div className="grid gap-2 rounded-lg border border-success/40 bg-success/10 p-3 text-sm" role="status" data-testid="invite-link">
          <p className="font-medium">
            Invitation with the {ROLE_WORDS[link.role as keyof typeof ROLE_WORDS].label} role — copy it now, it is shown only once.
          </p>
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 rounded bg-background px-2 py-1 font-mono text-xs break-all" data-testid="invite-url">
              {link.url}
            </code>
            <CopyButton value={link.url} label="Copy invitation link" />
          </div>
          <p className="text-muted-foreground">It works once, until {formatDateTime(link.expiresAt)}.</p>
        </div>
      )}
    </div>
  );
}
