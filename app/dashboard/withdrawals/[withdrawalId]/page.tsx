import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Address } from "@/components/dashboard/address";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { AutoRefresh } from "@/components/payments/payment-actions";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { explorerTxUrl } from "@/lib/web/dashboard/shared/explorer";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { loadWithdrawalPage } from "@/lib/web/dashboard/withdrawals/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Withdrawal" };

export default async function WithdrawalPage({ params }: { params: Promise<{ withdrawalId: string }> }) {
  const { withdrawalId } = await params;
  const w = await withAccountPage("read", ({ account }) => loadWithdrawalPage(account.id, withdrawalId));
  return (
    <>
      {w.status === "submitted" && <AutoRefresh />}
      <Link href="/dashboard/withdrawals" className={`${buttonVariants({ variant: "ghost", size: "sm" })} mb-3 -ml-2`}>
        <ArrowLeft aria-hidden /> Withdrawals
      </Link>
      <p className="text-sm text-muted-foreground">Withdrawal</p>
      <h1 className="mb-6 flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
        <Amount value={w.amount} symbol={w.token} />
        <StatusBadge kind="withdrawal" status={w.status} />
      </h1>
      <Card>
        <CardContent className="p-5">
          <dl className="grid gap-3 text-sm">
            <Row label="Status">
              {w.status === "submitted"
                ? "Sent to the network; waiting for the chain to confirm it."
                : w.status === "completed"
                  ? `Confirmed on chain ${formatDateTime(w.confirmedAt)}.`
                  : w.failureReason}
            </Row>
            <Row label="To">
              <Address value={w.toAddress} />
            </Row>
            <Row label="From">
              <span className="inline-flex flex-wrap items-center gap-2">
                <Address value={w.fromAddress} /> <span className="text-muted-foreground">({w.domain})</span>
              </span>
            </Row>
            <Row label="Transaction">
              {w.txHash ? (
                <Address value={w.txHash} href={explorerTxUrl(w.network, w.txHash)} />
              ) : (
                <span className="text-muted-foreground">
                  {w.status === "awaiting_approval" ? "Not signed yet: it awaits a second member's approval" : "None: nothing was sent"}
                </span>
              )}
            </Row>
            {w.fillerTxHash && (
              <Row label="Cancelling transaction">
                <Address value={w.fillerTxHash} href={explorerTxUrl(w.network, w.fillerTxHash)} />
              </Row>
            )}
            <Row label="Network">{networkLabel(w.network)}</Row>
            <Row label="Sent from">{w.source === "dashboard" ? "the dashboard" : "the API"}</Row>
            <Row label="Created">{formatDateTime(w.createdAt)}</Row>
            <Row label="Withdrawal id">
              <span className="font-mono text-xs break-all">{w.withdrawalId}</span>
            </Row>
          </dl>
        </CardContent>
      </Card>
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[9rem_1fr] sm:gap-2">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
