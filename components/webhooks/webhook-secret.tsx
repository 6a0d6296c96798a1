"use client";

import { Eye, EyeOff, KeyRound, Loader2, RefreshCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { rotateWebhookSecretAction } from "@/app/dashboard/_actions/webhooks";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { CopyButton } from "@/components/dashboard/copy-button";
import { formatDateTime } from "@/components/dashboard/format";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Button, buttonVariants } from "@/components/ui/button";

const MASK = "whsec_••••••••••••••••";

/**
 * The domain's signing secret: hidden until asked for (screens get shared), copyable, and
 * rotatable. A rotation keeps the old secret signing for 24 h, so it is shown here until then.
 */
export function WebhookSecret({
  domainId,
  domain,
  secret,
  previousSecretExpiresAt,
  twoFactor = false,
}: {
  domainId: number;
  domain: string;
  secret: string;
  previousSecretExpiresAt: string | null;
  /** Two-factor is on: a rotation asks for a current code. */
  twoFactor?: boolean;
}) {
  const router = useRouter();
  const [revealed, setRevealed] = useState(false);
  const [code, setCode] = useState("");
  const [pending, start] = useTransition();
  const rotate = () =>
    start(async () => {
      const result = await rotateWebhookSecretAction(domainId, twoFactor ? code : undefined);
      setCode("");
      if (!result.ok) {
        toast.error("Secret not rotated", { description: result.error });
        return;
      }
      // The merchant rotated to copy the new one into their receiver: show it right away.
      setRevealed(true);
      toast.success("New signing secret", {
        description: `The old one also signs until ${formatDateTime(result.data.previousSecretExpiresAt)}.`,
      });
      router.refresh();
    });

  return (
    <div className="grid gap-3 rounded-lg border bg-muted/30 p-4">
      <p className="flex items-center gap-2 text-sm font-medium">
        <KeyRound className="size-4 text-muted-foreground" aria-hidden /> Signing secret
      </p>
      <code
        data-testid="webhook-secret"
        data-revealed={revealed}
        className="rounded-md border bg-background px-3 py-2 font-mono text-xs break-all sm:text-sm"
      >
        {revealed ? (
          secret
        ) : (
          <>
            <span aria-hidden>{MASK}</span>
            <span className="sr-only">hidden; use Reveal or Copy</span>
          </>
        )}
      </code>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => setRevealed((r) => !r)} aria-pressed={revealed}>
          {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />} {revealed ? "Hide" : "Reveal"}
        </Button>
        <CopyButton value={secret} label="Copy secret" size="sm" className="border bg-background text-foreground shadow-xs" />
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button type="button" variant="ghost" size="sm" className="sm:ml-auto" disabled={pending}>
              {pending ? <Loader2 className="animate-spin" aria-hidden /> : <RefreshCw aria-hidden />} Rotate secret
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Rotate the signing secret of {domain}?</AlertDialogTitle>
              <AlertDialogDescription>
                A new secret signs every webhook from now on. For 24 hours the old one signs too (a second signature in webhook-signature),
                so your receiver keeps verifying while you deploy the new secret. After that, only the new one works.
              </AlertDialogDescription>
            </AlertDialogHeader>
            {twoFactor && <TwoFactorCodeField value={code} onChange={setCode} required />}
            <AlertDialogFooter>
              <AlertDialogCancel>Keep the current one</AlertDialogCancel>
              <AlertDialogAction className={buttonVariants()} onClick={rotate} disabled={twoFactor && !code.trim()}>
                Rotate secret
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
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
