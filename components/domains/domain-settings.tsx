"use client";

import { Loader2, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { TwoFactorCodeField } from "@/components/account/two-factor-code-field";
import { ConfirmAction } from "@/components/dashboard/confirm-action";
import { ShownOnce } from "@/components/dashboard/shown-once";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { deleteDomainAction, updateDomainAction } from "@/lib/web/dashboard/domains/actions";

/**
 * Payout address and webhook URL of one domain (empty clears), and its removal. `twoFactor`: the
 * account has two-factor on, so a change asks for a current code. A new payout address of a domain
 * already paid waits (PAYOUT_CHANGE_DELAY): the toast says so and the card shows the waiting change.
 */
export function DomainSettings({
  domainId,
  domain,
  payoutAddress,
  webhookUrl,
  twoFactor = false,
}: {
  domainId: number;
  domain: string;
  payoutAddress: string | null;
  webhookUrl: string | null;
  twoFactor?: boolean;
}) {
  const router = useRouter();
  const [payout, setPayout] = useState(payoutAddress ?? "");
  const [webhook, setWebhook] = useState(webhookUrl ?? "");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  // The signing secret the first webhook URL made: shown once, here; the page refreshes when it is closed.
  const [madeSecret, setMadeSecret] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const payoutDirty = payout.trim() !== (payoutAddress ?? "");
  const webhookDirty = webhook.trim() !== (webhookUrl ?? "");
  const dirty = payoutDirty || webhookDirty;
  const save = () =>
    start(async () => {
      // Only what changed: an unchanged field is no change to confirm.
      const result = await updateDomainAction(domainId, {
        ...(payoutDirty ? { payoutAddress: payout } : {}),
        ...(webhookDirty ? { webhookUrl: webhook } : {}),
        ...(twoFactor ? { code } : {}),
      });
      setCode("");
      if (!result.ok) {
        setErrors(result.fieldErrors ?? { form: result.error });
        toast.error("Not saved", { description: result.error });
        return;
      }
      setErrors({});
      const waits = result.data.payoutChangeEffectiveAt !== null && payoutDirty;
      toast.success(waits ? "Payout address change requested" : "Domain saved", {
        description: waits ? "It takes effect after the waiting period shown on the card; you can cancel it until then." : undefined,
      });
      if (result.data.webhookSecret) setMadeSecret(result.data.webhookSecret);
      else router.refresh();
    });
  const remove = () =>
    start(async () => {
      const result = await deleteDomainAction(domainId);
      if (!result.ok) {
        toast.error(result.error);
        return;
      }
      toast.success(`${domain} removed from the whitelist`);
      router.refresh();
    });
  return (
    <form
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Field
        label="Payout address"
        error={errors.payoutAddress ?? errors.form}
        hint="Payments are forwarded here; empty = the withdrawal wallet below."
      >
        {(control) => (
          <Input
            {...control}
            className="font-mono"
            placeholder="0x…"
            value={payout}
            onChange={(e) => setPayout(e.target.value)}
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Webhook URL"
        error={errors.webhookUrl}
        hint="Where signed payment and withdrawal events are POSTed (https). Saving one creates the signing secret shown below."
      >
        {(control) => (
          <Input
            {...control}
            placeholder="e.g. https://shop.example.com/hooks/bsc-pay"
            value={webhook}
            onChange={(e) => setWebhook(e.target.value)}
          />
        )}
      </Field>
      {twoFactor && dirty && <TwoFactorCodeField value={code} onChange={setCode} error={errors.code} required />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button type="submit" disabled={pending || !dirty || (twoFactor && !code.trim())}>
          {pending && <Loader2 className="animate-spin" aria-hidden />} Save changes
        </Button>
        <ConfirmAction
          trigger={
            <Button type="button" variant="ghost" className="text-destructive hover:text-destructive">
              <Trash2 aria-hidden /> Remove domain
            </Button>
          }
          title={<>Remove {domain}?</>}
          description="Browsers on this origin can no longer create payments. Its withdrawal wallet and everything it holds stay yours; the operator can still reach it."
          cancel="Keep it"
          confirm="Remove domain"
          onConfirm={remove}
        />
      </div>
      <Dialog
        open={madeSecret !== null}
        onOpenChange={(open) => {
          if (open) return;
          setMadeSecret(null);
          router.refresh();
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Your webhook signing secret</DialogTitle>
            <DialogDescription>
              Put it in your receiver: it verifies that each webhook comes from BSC Pay. After you close this, the page shows only its last
              4 characters; reveal it again with your two-factor code.
            </DialogDescription>
          </DialogHeader>
          {madeSecret && (
            <ShownOnce
              id={`made-secret-${domainId}`}
              label="Signing secret"
              value={madeSecret}
              copyLabel="Copy secret"
              note="Shown only now."
              testId="webhook-secret-made"
            />
          )}
          <DialogFooter>
            <Button
              type="button"
              onClick={() => {
                setMadeSecret(null);
                router.refresh();
              }}
            >
              Done
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </form>
  );
}
