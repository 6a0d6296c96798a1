"use client";

import { useRouter } from "next/navigation";
import { type ReactNode, useState, useTransition } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field, FormError } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { approveAction, rejectAction, setApprovalPolicyAction } from "@/lib/web/dashboard/approvals/actions";

/**
 * Approve: a dialog showing where the money goes and asking for the approver's two-factor code,
 * which approves exactly that content (`contentHash`, checked again by the server).
 */
export function ApproveButton({
  approvalId,
  what,
  contentHash,
  details,
}: {
  approvalId: string;
  what: string;
  contentHash: string | null;
  details: ReactNode;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [pending, start] = useTransition();
  const submit = () =>
    start(async () => {
      const result = await approveAction({ approvalId, code, ...(contentHash ? { contentHash } : {}) });
      if (!result.ok) {
        setError(result.fieldErrors?.code ?? result.error);
        return;
      }
      const { subject } = result.data;
      if (subject.status === "failed") toast.error(`Approved, but it could not be sent: ${subject.reason ?? "refused"}`);
      else toast.success(`Approved: ${what}.`);
      setOpen(false);
      setCode("");
      router.refresh();
    });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" data-testid="approve">
          Approve
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Approve {what}?</DialogTitle>
          <DialogDescription>It is sent as soon as you confirm with the current code from your authenticator app.</DialogDescription>
        </DialogHeader>
        <div className="grid gap-1 rounded-md border p-3 text-sm">
          <span className="text-muted-foreground">Goes to</span>
          {details}
        </div>
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Field label="Two-factor code" error={error}>
            {(control) => (
              <Input
                {...control}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.currentTarget.value)}
                required
              />
            )}
          </Field>
          <DialogFooter>
            <Button type="submit" disabled={pending || code.trim() === ""}>
              {pending ? "Approving…" : "Approve and send"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Reject (or, for the requester, withdraw) with an optional reason. */
export function RejectButton({ approvalId, own }: { approvalId: string; own: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [pending, start] = useTransition();
  const submit = () =>
    start(async () => {
      const result = await rejectAction({ approvalId, reason: reason.trim() || undefined });
      if (!result.ok) {
        setError(result.error);
        return;
      }
      toast.success(own ? "Your request was withdrawn." : "Rejected: nothing was sent.");
      setOpen(false);
      router.refresh();
    });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" data-testid="reject">
          {own ? "Withdraw" : "Reject"}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{own ? "Withdraw your request?" : "Reject this request?"}</DialogTitle>
          <DialogDescription>It is final: nothing is sent, and the shop's webhook hears approval.rejected.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Field label="Reason (optional)">
            {(control) => (
              <Input {...control} name="reason" maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
            )}
          </Field>
          <FormError>{error}</FormError>
          <DialogFooter>
            <Button type="submit" variant="destructive" disabled={pending}>
              {pending ? "Rejecting…" : own ? "Withdraw" : "Reject"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** One token's thresholds, set by the owner (empty: no limit). */
export function PolicyForm({
  tokenId,
  token,
  perRequest,
  perDay,
  needsCode,
}: {
  tokenId: number;
  token: string;
  perRequest: string | null;
  perDay: string | null;
  needsCode: boolean;
}) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();
  const [pending, start] = useTransition();
  return (
    <form
      className="grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto_auto]"
      data-testid={`policy-${token}`}
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const text = (name: string) => String(form.get(name) ?? "").trim();
        start(async () => {
          const result = await setApprovalPolicyAction({
            tokenId,
            perRequest: text("perRequest") || null,
            perDay: text("perDay") || null,
            code: text("code") || undefined,
          });
          if (!result.ok) {
            setErrors(result.fieldErrors ?? {});
            setError(result.fieldErrors ? undefined : result.error);
            return;
          }
          setErrors({});
          setError(undefined);
          toast.success(`${token}: thresholds saved.`);
          router.refresh();
        });
      }}
    >
      <Field label={`${token} per request`} hint="Above it, a second member approves" error={errors.perRequest}>
        {(control) => <Input {...control} name="perRequest" inputMode="decimal" placeholder="No limit" defaultValue={perRequest ?? ""} />}
      </Field>
      <Field label={`${token} per day (UTC)`} hint="Money out of the day, all members and keys" error={errors.perDay}>
        {(control) => <Input {...control} name="perDay" inputMode="decimal" placeholder="No limit" defaultValue={perDay ?? ""} />}
      </Field>
      {needsCode ? (
        <Field label="Two-factor code" error={errors.code}>
          {(control) => <Input {...control} name="code" inputMode="numeric" autoComplete="one-time-code" className="w-28" />}
        </Field>
      ) : (
        <span />
      )}
      <Button type="submit" disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </Button>
      <div className="sm:col-span-4">
        <FormError>{error}</FormError>
      </div>
    </form>
  );
}
