import { ArrowDownLeft, ArrowLeft, ArrowUpRight, CircleDot, ExternalLink, Flag, Fuel } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { Address } from "@/components/dashboard/address";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { PriceDetail, PriceHeadline } from "@/components/dashboard/price";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { ForwardProblem } from "@/components/payments/forward-problem";
import { AutoRefresh, CancelPaymentButton, SimulatePaymentButton } from "@/components/payments/payment-actions";
import { PaymentDeliveries } from "@/components/payments/payment-deliveries";
import { PaymentRefunds } from "@/components/refunds/payment-refunds";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { roleAllows } from "@/lib/accounts/members/roles";
import { readableDecimal } from "@/lib/base/money";
import { canSimulatePayments } from "@/lib/ops/seed/simulate-payment";
import { loadPaymentPage } from "@/lib/web/dashboard/payments/loaders";
import type { TimelineEvent } from "@/lib/web/dashboard/payments/payment-detail";
import { explorerTxUrl } from "@/lib/web/dashboard/shared/explorer";
import { networkLabel, statusLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Payment" };

export default async function PaymentDetailPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  const { member, role, payment } = await withAccountPage("read", async ({ account, member, role }) => ({
    member,
    role,
    payment: await loadPaymentPage(account.id, sessionId, member.id),
  }));
  const moving =
    payment.status === "pending" ||
    payment.timeline.some((e) => e.kind === "forward" && e.status !== "completed" && e.status !== "held") ||
    payment.refunds.refunds.some((r) => r.status === "sending");

  return (
    <>
      {moving && <AutoRefresh />}
      <Link href="/dashboard/payments" className={`${buttonVariants({ variant: "ghost", size: "sm" })} mb-3 -ml-2`}>
        <ArrowLeft aria-hidden /> Payments
      </Link>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">Payment</p>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            <PriceHeadline price={payment} />
            <StatusBadge status={payment.status} />
          </h1>
          <PriceDetail price={payment} className="mt-1 text-sm" />
          {(payment.orderId || payment.description) && (
            <p className="mt-1 text-sm">
              {payment.orderId && <span className="font-medium">{payment.orderId}</span>}
              {payment.orderId && payment.description && " · "}
              {payment.description && <span className="text-muted-foreground">{payment.description.split("\n")[0]}</span>}
            </p>
          )}
          <p className="mt-1 flex items-center gap-1 font-mono text-xs break-all text-muted-foreground">
            {payment.sessionId}
            <CopyButton value={payment.sessionId} label="Copy payment id" />
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {payment.status === "pending" && canSimulatePayments(payment.network) && <SimulatePaymentButton sessionId={payment.sessionId} />}
          {payment.status === "pending" && roleAllows(role, "payments") && <CancelPaymentButton sessionId={payment.sessionId} />}
          <a href={payment.checkoutUrl} target="_blank" rel="noreferrer" className={buttonVariants({ variant: "outline" })}>
            Checkout page <ExternalLink aria-hidden />
          </a>
        </div>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            {/* One grid for every row: labels in one column, values in the other, all aligned. */}
            <dl
              className="grid grid-cols-[minmax(0,6.5rem)_minmax(0,1fr)] sm:grid-cols-[max-content_minmax(0,1fr)] items-baseline gap-x-4 gap-y-3 text-sm"
              data-testid="payment-details"
            >
              {payment.orderId && <Row label="Order reference">{payment.orderId}</Row>}
              {payment.description && (
                <Row label="Description">
                  <span className="whitespace-pre-line">{payment.description}</span>
                </Row>
              )}
              {payment.currency && payment.rate && (
                <Row label="Rate">
                  <span className="grid gap-0.5">
                    <span className="tabular-nums">
                      1 {payment.token} = {readableDecimal(payment.rate, 8, 2)} {payment.currency}
                    </span>
                    <span className="text-xs break-all text-muted-foreground">
                      {payment.rateSource ?? "—"}, read {formatDateTime(payment.ratedAt)}
                    </span>
                  </span>
                </Row>
              )}
              <Row label="Received">
                <Amount value={payment.receivedAmount} symbol={payment.token} />
              </Row>
              {payment.status === "pending" && (
                <Row label="Still to pay">
                  <Amount value={payment.remainingAmount} symbol={payment.token} />
                </Row>
              )}
              {(payment.partial || payment.overpaid || payment.late) && (
                <Row label="Flags">
                  <span className="flex flex-wrap gap-1">
                    {payment.partial && <Badge variant="warning">Partly paid</Badge>}
                    {payment.overpaid && <Badge variant="outline">Overpaid</Badge>}
                    {payment.late && (
                      <Badge variant="outline">Paid late{payment.lateAmount ? `: ${payment.lateAmount} ${payment.token}` : ""}</Badge>
                    )}
                  </span>
                </Row>
              )}
              <Row label="Network">{networkLabel(payment.network)}</Row>
              <Row label="Deposit address">
                <Address value={payment.depositAddress} href={payment.depositAddressUrl} />
              </Row>
              <Row label="Paid out to">
                <Address value={payment.forwardTo} />
              </Row>
              <Row label="Domain">{payment.domain ? <BreakAfterScheme origin={payment.domain} /> : "—"}</Row>
              <Row label="Created by">
                {payment.link ? (
                  <Link href={`/dashboard/payments?linkId=${payment.link.linkId}`} className="underline underline-offset-4">
                    Payment link “{payment.link.title}”
                  </Link>
                ) : payment.createdByApiKey ? (
                  "Your shop (API key)"
                ) : (
                  "You, on the dashboard"
                )}
              </Row>
              <Row label="Created">
                <span className="whitespace-nowrap">{formatDateTime(payment.createdAt)}</span>
              </Row>
              <Row label="Expires">
                <span className="whitespace-nowrap">{formatDateTime(payment.expiresAt)}</span>
              </Row>
              {payment.metadata && (
                <Row label="Metadata">
                  <pre
                    className="max-h-40 overflow-auto rounded-md bg-muted p-2 font-mono text-xs"
                    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must take focus to be scrolled by keyboard (axe: scrollable-region-focusable)
                    tabIndex={0}
                  >
                    {JSON.stringify(payment.metadata, null, 2)}
                  </pre>
                </Row>
              )}
            </dl>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="relative grid gap-5 border-l pl-6" aria-label="What happened to this payment">
              {payment.timeline.map((event, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is rendered once from the server's data and never reordered
                <TimelineItem key={i} event={event} token={payment.token} />
              ))}
              {payment.status === "pending" && (
                <li className="relative text-sm text-muted-foreground">
                  <Dot icon={CircleDot} tone="muted" />
                  Waiting for the payer. Deposits count once{" "}
                  {payment.network === "local" ? "the next block confirms them" : "their block is confirmed"}.
                </li>
              )}
            </ol>
          </CardContent>
        </Card>
      </div>
      <PaymentRefunds
        sessionId={payment.sessionId}
        token={payment.token}
        refunds={payment.refunds.refunds.map((r) => ({ ...r, txUrl: r.txHash ? explorerTxUrl(r.network, r.txHash) : null }))}
        refundable={payment.refunds.refundable}
        twoFactor={member.totpEnabledAt !== null}
        canRefund={roleAllows(role, "money")}
      />
      <Card className="mt-6" data-testid="payment-webhooks">
        <CardHeader>
          <CardTitle>Webhook events</CardTitle>
          <CardDescription>What your shop&apos;s server was told about this payment.</CardDescription>
        </CardHeader>
        <CardContent className="px-2 sm:px-5">
          <PaymentDeliveries deliveries={payment.deliveries} />
        </CardContent>
      </Card>
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

const TONES = {
  muted: "bg-muted text-muted-foreground",
  good: "bg-success/15 text-success",
  warn: "bg-warning/15 text-warning",
  bad: "bg-destructive/15 text-destructive",
};

function Dot({ icon: Icon, tone }: { icon: typeof CircleDot; tone: keyof typeof TONES }) {
  return (
    <span className={`absolute top-0 -left-[2.2rem] flex size-6 items-center justify-center rounded-full ring-4 ring-card ${TONES[tone]}`}>
      <Icon className="size-3.5" aria-hidden />
    </span>
  );
}

function TimelineItem({ event, token }: { event: TimelineEvent; token: string }) {
  switch (event.kind) {
    case "created":
      return (
        <li className="relative" data-event="created">
          <Dot icon={Flag} tone="muted" />
          <p className="text-sm font-medium">Payment created</p>
          <p className="text-xs text-muted-foreground">{formatDateTime(event.at)}</p>
        </li>
      );
    case "deposit":
      return (
        <li className="relative" data-event="deposit">
          <Dot icon={ArrowDownLeft} tone={event.counted ? "good" : "warn"} />
          <p className="text-sm font-medium">
            Received <Amount value={event.amount} symbol={event.token} />
            {event.late && (
              <Badge variant="outline" className="ml-2">
                Late
              </Badge>
            )}
            {!event.late && !event.counted && (
              <Badge variant="outline" className="ml-2">
                Other token
              </Badge>
            )}
          </p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span>{formatDateTime(event.at)}</span>
            <span>Block {event.block}</span>
            <span className="inline-flex items-center gap-1">
              Transaction <Address value={event.txHash} href={event.txUrl} />
            </span>
            <span className="inline-flex items-center gap-1">
              From <Address value={event.from} copy={false} />
            </span>
          </p>
        </li>
      );
    case "forward":
      return (
        <li className="relative" data-event="forward" data-status={event.status}>
          <Dot
            icon={event.status === "held" ? Fuel : ArrowUpRight}
            tone={event.status === "completed" ? "good" : event.status === "held" ? "bad" : "warn"}
          />
          <p className="flex flex-wrap items-center gap-x-1.5 text-sm font-medium">
            {statusLabel("forward", event.status)}: <Amount value={event.amount} symbol={token} />
          </p>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span>{formatDateTime(event.at)}</span>
            <span className="inline-flex items-center gap-1">
              To <Address value={event.to} copy={false} />
            </span>
            {event.gasTxHash && (
              <span className="inline-flex items-center gap-1">
                Network fee top-up <Address value={event.gasTxHash} href={event.gasTxUrl} copy={false} />
              </span>
            )}
            {event.sweepTxHash && (
              <span className="inline-flex items-center gap-1">
                Transfer <Address value={event.sweepTxHash} href={event.sweepTxUrl} />
              </span>
            )}
          </p>
          <ForwardProblem heldReason={event.heldReason} lastError={event.lastError} />
        </li>
      );
    case "final":
      return (
        <li className="relative" data-event="final">
          <Dot icon={CircleDot} tone={event.status === "completed" ? "good" : "muted"} />
          <p className="text-sm font-medium">Payment {statusLabel("payment", event.status).toLowerCase()}</p>
          <p className="text-xs text-muted-foreground">{formatDateTime(event.at)}</p>
        </li>
      );
  }
}

/** An origin that wraps after its scheme on a phone, not inside its host (the host moves as one). */
function BreakAfterScheme({ origin }: { origin: string }) {
  const at = origin.indexOf("//");
  if (at < 0) return origin;
  return (
    <>
      {origin.slice(0, at + 2)}
      <span className="inline-block">{origin.slice(at + 2)}</span>
    </>
  );
}
