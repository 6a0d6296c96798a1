"use client";

import { Eye, KeyRound, Loader2, RefreshCw } from "lucide-react";
import Link from "next/link";
import { useState, useTransition } from "react";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { formatDateTime } from "@/components/dashboard/format";
import { ShownOnce } from "@/components/dashboard/shown-once";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/field";
import { revealWebhookSecretAction, rotateWebhookSecretAction } from "@/lib/web/dashboard/webhooks/actions";

/**
 * The domain's signing secret: the page knows only its hint (`whsec_…` + its last 4 characters).
 * A member with the developer permission reveals it — or rotates it — with their two-factor code;
 * the secret shows in a dialog with a copy button and is gone when the dialog closes. Without
 * two-factor on, the dialog says to turn it on first. Other roles see the hint only.
 */
export function WebhookSecret({
  domainId,
  domain,
  hint,
  previousSecretExpiresAt,
  twoFactor = false,
  canManage = false,
}: {
  domainId: number;
  domain: string;
  hint: string;
  previousSecretExpiresAt: string | null;
  /** The member has two-factor on: revealing and rotating ask for a current code. */
  twoFactor?: boolean;
  /** The member's role holds the developer permission. */
  canManage?: boolean;
}) {
  return (
    <div className="grid gap-3 rounded-lg border bg-muted/30 p-4">
      <p className="flex items-center gap-2 text-sm font-medium">
        <KeyRound className="size-4 text-muted-foreground" aria-hidden /> Signing secret
      </p>
      <code
        data-testid="webhook-secret"
        data-revealed={false}
        className="rounded-md border bg-background px-3 py-2 font-mono text-xs break-all sm:text-sm"
      >
        {hint}
        <span className="sr-only"> (only its last 4 characters are shown)</span>
      </code>
      {canManage ? (
        <div className="flex flex-wrap items-center gap-2">
          <SecretDialog mode="reveal" domainId={domainId} domain={domain} twoFactor={twoFactor} />
          <SecretDialog mode="rotate" domainId={domainId} domain={domain} twoFactor={twoFactor} />
        </div>
      ) : (
        <p className="text-xs text-muted-foreground" data-testid="webhook-secret-role-note">
          Members with the developer permission can reveal or rotate it, with their two-factor code.
        </p>
      )}
      {previousSecretExpiresAt && (
        <p className="rounded-md border border-warning/30 bg-warning/10 px-3 py-2 text-xs text-foreground" data-testid="secret-overlap">
          Rotated: the previous secret also signs until{" "}
          <time dateTime={previousSecretExpiresAt}>{formatDateTime(previousSecretExpiresAt)}</time>. Put the new one in your receiver before
          then.
        </p>
      )}
      <p className="text-xs text-muted-foreground">
        Verify every request with the <span className="font-mono">standardwebhooks</span> package:{" "}
        <code className="font-mono break-all text-foreground">new Webhook(secret).verify(body, headers)</code> — on the raw body, before
        parsing it.
      </p>
    </div>
  );
}

type Shown = { secret: string; previous: string | null; previousUntil: string | null };

const WORDS = {
  reveal: {
    button: "Reveal",
    title: "Signing secret",
    ask: "Enter your two-factor code to see the secret. It is shown until you close this window.",
    submit: "Reveal secret",
    label: "Signing secret",
    note: "Anyone with it can sign events your receiver trusts: keep it in your server's configuration only.",
  },
  rotate: {
    button: "Rotate secret",
    title: "Rotate the signing secret?",
    ask: "A new secret signs every webhook from now on. For 24 hours the old one signs too (a second signature in webhook-signature), so your receiver keeps verifying while you deploy the new secret. After that, only the new one works.",
    submit: "Rotate secret",
    label: "New signing secret",
    note: "Shown only now: copy it into your receiver before you close this. Lost it? Reveal it again with your code.",
  },
} as const;

/** Reveal or rotate: asks for the code, then shows the secret once; closing forgets it. */
function SecretDialog({
  mode,
  domainId,
  domain,
  twoFactor,
}: {
  mode: "reveal" | "rotate";
  domainId: number;
  domain: string;
  twoFactor: boolean;
}) {
  const words = WORDS[mode];
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<{ code?: string; form?: string }>({});
  const [shown, setShown] = useState<Shown | null>(null);
  const [pending, start] = useTransition();

  const openChange = (next: boolean) => {
    if (pending) return;
    setCode("");
    setProblem({});
    setShown(null); // closed: the secret leaves the page
    setOpen(next);
  };
  const submit = () =>
    start(async () => {
      const result = mode === "reveal" ? await revealWebhookSecretAction(domainId, code) : await rotateWebhookSecretAction(domainId, code);
      setCode("");
      if (!result.ok) {
        setProblem(result.fieldErrors?.code ? { code: result.fieldErrors.code } : { form: result.error });
        return;
      }
      const data = result.data;
      setShown(
        "previousSecret" in data
          ? { secret: data.webhookSecret, previous: data.previousSecret, previousUntil: data.previousSecretExpiresAt }
          : { secret: data.webhookSecret, previous: null, previousUntil: null },
      );
      // (A rotation's page update comes with the action's answer: revalidatePath. A refresh here would
      // keep the transition pending, and the dialog open, until it lands.)
    });

  return (
    <Dialog open={open} onOpenChange={openChange}>
      <DialogTrigger asChild>
        <Button type="button" variant={mode === "reveal" ? "outline" : "ghost"} size="sm" className={mode === "rotate" ? "sm:ml-auto" : ""}>
          {mode === "reveal" ? <Eye aria-hidden /> : <RefreshCw aria-hidden />} {words.button}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{words.title}</DialogTitle>
          {/* The origin on its own line: a long one wraps at its characters, not in the title's words. */}
          <p className="font-mono text-xs break-all text-muted-foreground">{domain}</p>
          <DialogDescription>{shown ? words.note : twoFactor ? words.ask : NEEDS_TWO_FACTOR}</DialogDescription>
        </DialogHeader>
        {shown ? (
          <div className="grid gap-4">
            <ShownOnce
              id={`webhook-secret-${mode}-${domainId}`}
              label={words.label}
              value={shown.secret}
              copyLabel="Copy secret"
              note="Hidden again when you close this window."
              testId="webhook-secret-shown"
            />
            {shown.previous && shown.previousUntil && (
              <ShownOnce
                id={`webhook-secret-previous-${domainId}`}
                label="Previous secret"
                value={shown.previous}
                copyLabel="Copy previous secret"
                note={`Still signs too until ${formatDateTime(shown.previousUntil)}.`}
              />
            )}
            <DialogFooter>
              <Button onClick={() => openChange(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : twoFactor ? (
          <form
            className="grid gap-4"
            aria-label={words.submit}
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <TwoFactorCodeField value={code} onChange={setCode} error={problem.code} required />
            <FormError>{problem.form}</FormError>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => openChange(false)} disabled={pending}>
                Back
              </Button>
              <Button type="submit" disabled={pending || !code.trim()}>
                {pending && <Loader2 className="animate-spin" aria-hidden />} {words.submit}
              </Button>
            </DialogFooter>
          </form>
        ) : (
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => openChange(false)}>
              Back
            </Button>
            <Button asChild>
              <Link href="/dashboard/settings">Turn on two-factor</Link>
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}

const NEEDS_TWO_FACTOR =
  "The signing secret signs payment events your shop trusts, so seeing or rotating it needs your two-factor code. Turn on two-factor authentication in Settings first.";
