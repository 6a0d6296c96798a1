"use client";

import { Loader2, ShieldCheck, ShieldOff } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { toast } from "sonner";
import { CopyButton } from "@/components/dashboard/copy-button";
import { formatDate } from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useRequiredFilled } from "@/components/ui/use-required-filled";
import type { TwoFactorStatus } from "@/lib/accounts/users/two-factor";
import {
  confirmTwoFactorAction,
  disableTwoFactorAction,
  regenerateRecoveryCodesAction,
  startTwoFactorAction,
} from "@/lib/web/dashboard/account/actions";

type Enrolling = { secret: string; qrCode: string };

/** Settings → two-factor sign-in: set up (scan, confirm, keep the recovery codes), new codes, turn off. */
export function TwoFactorSettings({ status }: { status: TwoFactorStatus }) {
  const router = useRouter();
  const [enrolling, setEnrolling] = useState<Enrolling | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [errors, setErrors] = useState<{ code?: string; currentPassword?: string; form?: string }>({});
  const [pending, start] = useTransition();
  const { filled, formProps } = useRequiredFilled();

  const begin = () =>
    start(async () => {
      const result = await startTwoFactorAction();
      if (!result.ok) return void toast.error(result.error);
      setErrors({});
      setEnrolling({ secret: result.data.secret, qrCode: result.data.qrCode });
    });
  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const code = String(form.get("code") ?? "");
    const currentPassword = String(form.get("currentPassword") ?? "");
    start(async () => {
      const result = await confirmTwoFactorAction({ code, currentPassword });
      if (!result.ok) {
        const { code: codeError, currentPassword: passwordError } = result.fieldErrors ?? {};
        return setErrors(codeError || passwordError ? { code: codeError, currentPassword: passwordError } : { form: result.error });
      }
      setErrors({});
      setEnrolling(null);
      setCodes(result.data.recoveryCodes);
    });
  };
  const stored = () => {
    setCodes(null);
    toast.success("Two-factor authentication is on");
    router.refresh();
  };

  if (codes) return <RecoveryCodes codes={codes} onStored={stored} />;
  if (enrolling) {
    return (
      <div className="grid gap-5">
        <ol className="grid list-decimal gap-1 pl-5 text-sm text-muted-foreground">
          <li>Scan the QR code with an authenticator app (Google Authenticator, 1Password, Authy, …), or type the key.</li>
          <li>Enter the 6-digit code the app shows, and your password.</li>
        </ol>
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
          {/* A data URL made on the server: next/image adds nothing for it. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img
            src={enrolling.qrCode}
            alt="QR code of your two-factor key, to scan with an authenticator app"
            width={176}
            height={176}
            className="size-44 rounded-lg border bg-white p-1"
          />
          <div className="grid min-w-0 gap-2">
            <p className="text-sm font-medium">Key</p>
            <div className="flex items-center gap-2 rounded-lg border bg-muted/50 p-2">
              <code data-testid="totp-secret" className="min-w-0 flex-1 font-mono text-xs break-all select-all">
                {enrolling.secret.replace(/(.{4})/g, "$1 ").trim()}
              </code>
              <CopyButton value={enrolling.secret} label="Copy key" />
            </div>
          </div>
        </div>
        <form {...formProps} onSubmit={confirm} className="grid max-w-sm gap-3" noValidate>
          <FormError>{errors.form}</FormError>
          <Field label="Code from the app" error={errors.code}>
            {(control) => (
              <Input
                {...control}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                placeholder="e.g. 123456"
                required
              />
            )}
          </Field>
          {/* Turning it on signs out every other session: a stolen session alone must not do it. */}
          <Field label="Current password" error={errors.currentPassword}>
            {(control) => <Input {...control} name="currentPassword" type="password" autoComplete="current-password" required />}
          </Field>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={pending || !filled}>
              {pending && <Loader2 className="animate-spin" aria-hidden />} Turn on
            </Button>
            <Button type="button" variant="ghost" onClick={() => setEnrolling(null)}>
              Cancel
            </Button>
          </div>
        </form>
      </div>
    );
  }
  if (!status.enabled) {
    return (
      <div className="grid justify-items-start gap-3">
        <p className="text-sm text-muted-foreground">
          Off. With it on, signing in, sending a withdrawal from this dashboard and creating an API key also ask for a code from an app on
          your phone.
        </p>
        <Button onClick={begin} disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : <ShieldCheck aria-hidden />} Set up two-factor authentication
        </Button>
      </div>
    );
  }
  return (
    <div className="grid justify-items-start gap-3">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <Badge variant="success">On</Badge>
        <span className="text-muted-foreground">
          since {formatDate(status.enabledAt)} · {status.recoveryCodesLeft} of 10 recovery codes left
        </span>
      </p>
      <div className="flex flex-wrap gap-2">
        <CodeDialog
          trigger="New recovery codes"
          title="New recovery codes"
          description="The current recovery codes stop working. Enter the code your authenticator app shows now."
          submit="Make new codes"
          allowRecovery={false}
          run={async (code) => {
            const result = await regenerateRecoveryCodesAction({ code });
            if (result.ok) setCodes(result.data.recoveryCodes);
            return result;
          }}
        />
        <CodeDialog
          trigger="Turn off"
          destructive
          title="Turn off two-factor authentication?"
          description="Signing in will ask for your password only. Enter the code your app shows now, or a recovery code."
          submit="Turn off"
          allowRecovery
          run={async (code) => {
            const result = await disableTwoFactorAction({ code });
            if (result.ok) {
              toast.success("Two-factor authentication is off");
              router.refresh();
            }
            return result;
          }}
        />
      </div>
    </div>
  );
}

function RecoveryCodes({ codes, onStored }: { codes: string[]; onStored: () => void }) {
  return (
    <div className="grid gap-4">
      <p className="text-sm">
        <span className="font-medium">Keep these recovery codes somewhere safe.</span> Each one signs you in once if you lose your phone.
        This is the only time they are shown.
      </p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/50 p-3 font-mono text-sm sm:max-w-md">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={codes.join("\n")} label="Copy codes" size="sm" />
        <Button onClick={onStored}>I have stored them</Button>
      </div>
    </div>
  );
}

function CodeDialog(props: {
  trigger: string;
  title: string;
  description: string;
  submit: string;
  destructive?: boolean;
  allowRecovery: boolean;
  run: (code: string) => Promise<{ ok: boolean; error?: string; fieldErrors?: Record<string, string> }>;
}) {
  const [open, setOpen] = useState(false);
  const [errors, setErrors] = useState<{ code?: string; form?: string }>({});
  const [pending, start] = useTransition();
  const { filled, formProps } = useRequiredFilled();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    start(async () => {
      const result = await props.run(code);
      if (!result.ok) return setErrors(result.fieldErrors?.code ? { code: result.fieldErrors.code } : { form: result.error });
      setErrors({});
      setOpen(false);
    });
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setErrors({});
      }}
    >
      <DialogTrigger asChild>
        <Button variant={props.destructive ? "outline" : "secondary"}>
          {props.destructive && <ShieldOff aria-hidden />} {props.trigger}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogDescription>{props.description}</DialogDescription>
        </DialogHeader>
        <form {...formProps} onSubmit={submit} className="grid gap-4" noValidate>
          <FormError>{errors.form}</FormError>
          <Field label={props.allowRecovery ? "Code or recovery code" : "Code from the app"} error={errors.code}>
            {(control) => (
              <Input {...control} name="code" autoComplete="one-time-code" maxLength={props.allowRecovery ? 11 : 6} required autoFocus />
            )}
          </Field>
          <DialogFooter>
            <Button type="submit" variant={props.destructive ? "destructive" : "default"} disabled={pending || !filled}>
              {pending && <Loader2 className="animate-spin" aria-hidden />} {props.submit}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
