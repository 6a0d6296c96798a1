"use client";

import { Loader2, XCircle } from "lucide-react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { toast } from "sonner";
import { Address } from "@/components/dashboard/address";
import { ConfirmAction } from "@/components/dashboard/confirm-action";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { displayRate } from "@/lib/domain/pricing/display-rate";
import type { DashboardRefund, PaymentRefunds as Refunds } from "@/lib/domain/refunds/dashboard-refunds";
import { cancelRefundAction } from "@/lib/web/dashboard/refunds/actions";
import { NOT_REFUNDABLE_WORDS } from "@/lib/web/dashboard/shared/refusal-words";
import { ClaimLinkButton } from "./claim-link-button";
import { RefundDialog } from "./refund-dialog";
import { sentence } from "./sentence";

export type RefundRow = DashboardRefund & { txUrl: string | null };

/** The Refunds card of a payment's page: its refunds, and the Refund button (or why nothing can go back). */
export function PaymentRefunds({
  sessionId,
  token,
  refunds,
  refundable,
  twoFactor,
  canRefund = true,
}: {
  sessionId: string;
  token: string;
  refunds: RefundRow[];
  refundable: Refunds["refundable"];
  twoFactor: boolean;
  /** The member's role may send money out: else no Refund button. */
  canRefund?: boolean;
}) {
  return (
    <Card className="mt-6" data-testid="payment-refunds">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Refunds</CardTitle>
          <CardDescription>
            {"refusal" in refundable
              ? NOT_REFUNDABLE_WORDS[refundable.refusal]
              : `Up to ${refundable.amount} ${token} can go back to the payer, from this payment's domain wallet.`}
          </CardDescription>
        </div>
        {"amount" in refundable && canRefund && (
          <RefundDialog
            sessionId={sessionId}
            token={token}
            refundable={refundable.amount}
            byDefault={refundable.byDefault}
            fiat={refundable.fiat}
            twoFactor={twoFactor}
          />
        )}
      </CardHeader>
      <CardContent>
        {refunds.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="no-refunds">
            No refunds yet.
          </p>
        ) : (
          <ul className="grid gap-3" aria-label="Refunds of this payment">
            {refunds.map((refund) => (
              <RefundItem key={refund.refundId} refund={refund} canRefund={canRefund} twoFactor={twoFactor} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function RefundItem({ refund, canRefund, twoFactor }: { refund: RefundRow; canRefund: boolean; twoFactor: boolean }) {
  const awaiting = refund.status === "awaiting_address";
  return (
    <li className="grid gap-2 rounded-lg border p-3 text-sm sm:p-4" data-refund-id={refund.refundId} data-status={refund.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-medium">
            <Amount value={refund.amount} symbol={refund.token} />
          </span>
          <StatusBadge status={refund.status} kind="refund" />
          {refund.basis === "fiat" && (
            <span className="text-xs text-muted-foreground">
              {refund.fiatAmount} {refund.currency} at {displayRate(refund.rate ?? "0")} {refund.currency} per {refund.token}
            </span>
          )}
        </span>
        <span className="text-xs whitespace-nowrap text-muted-foreground">{formatDateTime(refund.completedAt ?? refund.createdAt)}</span>
      </div>
      <p className="flex flex-wrap items-center gap-x-1.5 text-muted-foreground">
        To{" "}
        {refund.toAddress ? (
          <>
            <Address value={refund.toAddress} className="text-foreground" />
            <span className="text-xs">({refund.addressFrom === "payer" ? "given by the payer" : "given by you"})</span>
          </>
        ) : (
          <span className="text-foreground">the address the payer chooses</span>
        )}
      </p>
      {refund.txHash && (
        <p className="flex flex-wrap items-center gap-x-1.5 text-muted-foreground">
          Transaction <Address value={refund.txHash} href={refund.txUrl} />
        </p>
      )}
      {refund.reason && (refund.status === "failed" || refund.status === "cancelled" || refund.status === "rejected") && (
        <p className={refund.status === "failed" ? "text-destructive" : "text-muted-foreground"}>{sentence(refund.reason)}.</p>
      )}
      {refund.status === "awaiting_approval" && (
        <p className="text-muted-foreground" data-testid="refund-awaiting-approval">
          Above your approval threshold: a second member approves it, with the address it goes to, on the Approvals page; nothing is sent
          before.
        </p>
      )}
      {refund.status === "awaiting_funds" && (
        // Recorded with its address; the job sends it once the wallet can pay. Why it cannot yet, and what would help.
        <div className="grid gap-2" data-testid="refund-awaiting-funds">
          <p className="min-w-0 rounded-md border border-warning/40 bg-warning/10 p-2 [overflow-wrap:anywhere]">
            {refund.reason ? `${sentence(refund.reason)}.` : "The withdrawal wallet cannot pay it yet; it is sent as soon as it can."}
          </p>
          {canRefund && (
            <div>
              <CancelRefundButton refundId={refund.refundId} />
            </div>
          )}
        </div>
      )}
      {refund.reason && awaiting && (
        // The payer only read "try later": what to fix is said here.
        <p className="text-destructive" data-testid="refund-claim-failure">
          {sentence(refund.reason)}.
        </p>
      )}
      {awaiting && (
        // The link itself is never listed: it was shown once to the member who made it, who may issue a new one.
        <div className="grid gap-2" data-testid="refund-claim">
          <p className="text-muted-foreground">
            {refund.claimLinkIssued
              ? `Waiting for the payer to open the claim link and give an address (until ${formatDateTime(refund.claimExpiresAt)}).`
              : "No working claim link: it was made before links carried a secret. Issue one and send it to the payer."}
            {refund.claimLinkIssued && !refund.createdByYou && " Only the member who created it can issue a new link."}
          </p>
          {canRefund && (
            <div className="flex flex-wrap gap-2">
              {refund.createdByYou && <ClaimLinkButton refundId={refund.refundId} twoFactor={twoFactor} first={!refund.claimLinkIssued} />}
              <CancelRefundButton refundId={refund.refundId} />
            </div>
          )}
        </div>
      )}
    </li>
  );
}

function CancelRefundButton({ refundId }: { refundId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const cancel = () =>
    start(async () => {
      const result = await cancelRefundAction(refundId);
      if (!result.ok) toast.error("Refund not cancelled", { description: sentence(result.error) });
      else toast.success("Refund cancelled", { description: "Nothing is sent." });
      router.refresh();
    });
  return (
    <ConfirmAction
      trigger={
        <Button variant="outline" size="sm" className="shrink-0" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden /> : <XCircle aria-hidden />} Cancel
          <span className="sr-only"> this refund</span>
        </Button>
      }
      title="Cancel this refund?"
      description="Nothing is sent, and a claim link stops working. The amount can be refunded again later."
      cancel="Keep it"
      confirm="Cancel refund"
      onConfirm={cancel}
    />
  );
}
