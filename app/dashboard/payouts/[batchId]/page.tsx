import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Address } from "@/components/dashboard/address";
import { ExportButton } from "@/components/dashboard/export-button";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { AutoRefresh } from "@/components/payments/payment-actions";
import { BatchProgress } from "@/components/payouts/batch-progress";
import { PayoutItemsTable } from "@/components/payouts/items-table";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { roleAllows } from "@/lib/accounts/members/roles";
import { loadPayoutBatchPage } from "@/lib/web/dashboard/payouts/loaders";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Payout batch" };

const STATUS_WORDS: Record<string, string> = {
  awaiting_approval: "Waiting for a second member to approve it; nothing has been sent.",
  rejected: "Rejected: nothing was sent.",
  pending: "Queued: the first transactions go out in a moment.",
  sending: "Sent to the network; each payment shows paid once the chain confirms it.",
  completed: "Every payment was confirmed on chain.",
  partially_failed: "Some payments failed; the others were confirmed on chain.",
  failed: "No payment went through.",
};

export default async function PayoutBatchPage({ params }: { params: Promise<{ batchId: string }> }) {
  const { batchId } = await params;
  const { batch, role } = await withAccountPage("read", async ({ account, role }) => ({
    batch: await loadPayoutBatchPage(account.id, batchId),
    role,
  }));
  const open = batch.counts.pending + batch.counts.sending > 0 || batch.status === "pending" || batch.status === "sending";
  return (
    <>
      {open && <AutoRefresh />}
      <Link href="/dashboard/payouts" className={`${buttonVariants({ variant: "ghost", size: "sm" })} mb-3 -ml-2`}>
        <ArrowLeft aria-hidden /> Payouts
      </Link>
      <p className="text-sm text-muted-foreground">Payout batch</p>
      <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
          <Amount value={batch.total} symbol={batch.token} />
          <StatusBadge kind="payout_batch" status={batch.status} />
        </h1>
        {roleAllows(role, "reports") && (
          <ExportButton href={`/dashboard/payouts/${batch.batchId}/export`} fallbackName={`bsc-pay-payout-${batch.batchId}.csv`} />
        )}
      </div>
      <div className="grid gap-6">
        <Card>
          <CardContent className="p-5">
            <dl className="grid gap-3 text-sm">
              <Row label="Status">{batch.reason ? `${STATUS_WORDS[batch.status]} ${batch.reason}` : STATUS_WORDS[batch.status]}</Row>
              <Row label="Progress">
                <BatchProgress counts={batch.counts} total={batch.itemCount} />
              </Row>
              <Row label="Recipients">{batch.itemCount}</Row>
              <Row label="From">
                <Address value={batch.fromAddress} />
              </Row>
              <Row label="Network">{networkLabel(batch.network)}</Row>
              <Row label="Created">{formatDateTime(batch.createdAt)}</Row>
              {batch.completedAt && <Row label="Finished">{formatDateTime(batch.completedAt)}</Row>}
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Payments</CardTitle>
          </CardHeader>
          <CardContent className="p-2 sm:p-3">
            <PayoutItemsTable items={batch.items} token={batch.token} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}
