"use client";

import { CheckCircle2 } from "lucide-react";
import { ShownOnce } from "@/components/dashboard/shown-once";
import { Button } from "@/components/ui/button";
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { displayRate } from "@/lib/domain/pricing/display-rate";
import type { RefundView } from "@/lib/domain/refunds/refund-view";
import { sentence } from "./sentence";

/** The refund dialog once the refund exists: what happens next, and its claim link shown this once. */
export function RefundCreated({ created, onDone }: { created: RefundView; onDone: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <CheckCircle2 className="size-5 text-success" aria-hidden /> Refund created
        </DialogTitle>
        <DialogDescription className="[overflow-wrap:anywhere]">
          {created.status === "awaiting_address"
            ? `${created.amount} ${created.token} wait for the payer: send them this link, where they give their address.`
            : created.status === "awaiting_approval"
              ? `${created.amount} ${created.token} wait for a second member's approval (the Approvals page); nothing is claimable or sent before.`
              : created.status === "awaiting_funds"
                ? `${created.amount} ${created.token} will go to ${created.toAddress} as soon as this payment's domain wallet can pay. ${sentence(created.reason ?? "")}.`
                : `${created.amount} ${created.token} are on their way to ${created.toAddress}.`}
          {created.basis === "fiat" &&
            ` That is ${created.fiatAmount} ${created.currency} at ${displayRate(created.rate ?? "0")} ${created.currency} per ${created.token}.`}
        </DialogDescription>
      </DialogHeader>
      {created.status === "awaiting_address" && created.claimUrl && (
        <ShownOnce
          id="new-claim-link"
          label="Claim link"
          value={created.claimUrl}
          copyLabel="Copy link"
          note="Shown only now: copy it before you close this. Lost it? Issue a new link from this refund on the payment's page (this one then stops working)."
          testId="refund-created"
        />
      )}
      {created.status === "awaiting_address" && !created.claimUrl && (
        // The same form sent again (its first answer was lost): the link was in that answer only.
        <p className="text-sm text-muted-foreground" data-testid="refund-created-again">
          This refund was created by your earlier attempt, and its link was shown only then. Issue a new link from the refund on the
          payment&apos;s page.
        </p>
      )}
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}
