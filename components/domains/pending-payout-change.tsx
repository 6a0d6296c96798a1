"use client";

import { Clock, Loader2, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { formatDateTime } from "@/components/dashboard/format";
import { Button } from "@/components/ui/button";
import { cancelPayoutChangeAction } from "@/lib/web/dashboard/domains/actions";

/**
 * A payout address change waiting for its date (docs/design.md §21): payments keep going to the
 * current address until then. Cancelling needs no code (it only makes things safer), so a
 * merchant who did not ask for the change can stop it even without their phone.
 */
export function PendingPayoutChange({
  domainId,
  address,
  effectiveAt,
}: {
  domainId: number;
  /** null: back to the withdrawal wallet. */
  address: string | null;
  effectiveAt: string;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const cancel = () =>
    start(async () => {
      const result = await cancelPayoutChangeAction(domainId);
      if (!result.ok) {
        toast.error("Not cancelled", { description: result.error });
        return;
      }
      toast.success("Payout address change cancelled");
      router.refresh();
    });
  return (
    <div
      role="status"
      data-testid="pending-payout-change"
      className="grid gap-3 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm text-foreground sm:grid-cols-[1fr_auto] sm:items-center"
    >
      <p className="flex min-w-0 gap-2">
        <Clock className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
        <span className="min-w-0">
          Payout address changes to {address ? <span className="font-mono text-xs break-all">{address}</span> : "the withdrawal wallet"} on{" "}
          <time dateTime={effectiveAt} className="font-medium">
            {formatDateTime(effectiveAt)}
          </time>
          . Until then payments go to the current address. Did not ask for this? Cancel it and change your password.
        </span>
      </p>
      <Button type="button" variant="outline" size="sm" onClick={cancel} disabled={pending} className="justify-self-start">
        {pending ? <Loader2 className="animate-spin" aria-hidden /> : <X aria-hidden />} Cancel change
      </Button>
    </div>
  );
}
