import { ArrowRight, CheckCircle2, Circle, CreditCard, Fuel } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Address } from "@/components/dashboard/address";
import { EmptyState } from "@/components/dashboard/empty-state";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { PriceDetail, PriceHeadline } from "@/components/dashboard/price";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { VolumeChart } from "@/components/dashboard/volume-chart";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { displayRate } from "@/lib/domain/pricing/display-rate";
import { loadOverviewPage } from "@/lib/web/dashboard/overview/loaders";
import { networkLabel, statusLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ range?: string }> }) {
  const range = (await searchParams).range === "7" ? 7 : 30;
  const { checklist, counts, volume, value, balances, tanks, recent } = await withAccountPage("read", ({ account }) =>
    loadOverviewPage(account.id, range, account.accountCurrency),
  );
  const converted = value.byCurrency.filter((c) => c.currency !== value.currency);

  return (
    <>
      <PageHeader title="Overview" description="How your shop is getting paid." />
      <div className="grid grid-cols-1 gap-6">
        {!checklist.complete && <Checklist steps={checklist.steps} />}
        {tanks.map((tank) => (
          <div
            key={tank.network}
            role="status"
            className="flex items-start gap-3 rounded-xl border border-warning/40 bg-warning/10 px-4 py-3 text-sm"
          >
            <Fuel className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
            <p>
              <span className="font-medium">The gas tank on {networkLabel(tank.network)} is low</span>
              {tank.balance !== null && <> ({tank.balance} BNB)</>}
              {tank.waitingForwards > 0 && (
                <>
                  ; {tank.waitingForwards === 1 ? "1 payment waits" : `${tank.waitingForwards} payments wait`} for it to reach your wallet
                </>
              )}
              . Your operator refills it at <Address value={tank.address} />.
            </p>
          </div>
        ))}

        <section aria-label="Money received" className="grid gap-4" data-testid="volume-figure">
          <Card>
            <CardContent className="grid gap-1 p-5">
              <span className="text-sm text-muted-foreground">Received in the last {range} days</span>
              <span className="text-3xl font-semibold" data-testid="account-total">
                <Amount value={value.total} symbol={value.currency} />
              </span>
              {converted.length > 0 && (
                <ul className="grid gap-0.5 text-xs text-muted-foreground" data-testid="conversions">
                  {converted.map((c) => (
                    <li key={c.currency}>
                      {c.conversion ? (
                        <>
                          <Amount value={c.total} symbol={c.currency} /> at today&apos;s rate, 1 {c.currency} ={" "}
                          {displayRate(c.conversion.rate)} {value.currency}
                          {c.conversion.asOf && <> (Chainlink, {formatDateTime(c.conversion.asOf)})</>}
                        </>
                      ) : (
                        <>
                          <Amount value={c.total} symbol={c.currency} /> not included: no {c.currency}/{value.currency} rate right now
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {volume.totals.length > 0 && (
                <div className="mt-2 grid gap-1 border-t pt-2 text-sm">
                  <span className="text-xs text-muted-foreground">By token received</span>
                  <span className="flex flex-wrap gap-x-5 gap-y-1" data-testid="token-totals">
                    {volume.totals.map((t) => {
                      const unvalued = value.notValued.find((n) => n.symbol === t.symbol);
                      return (
                        <span key={t.symbol}>
                          <Amount value={t.total} symbol={t.symbol} className="font-medium" />
                          {unvalued && (
                            <span className="text-xs text-muted-foreground">
                              {value.symbols.includes(t.symbol) ? ` (${unvalued.total} not valued)` : " (not valued)"}
                            </span>
                          )}
                        </span>
                      );
                    })}
                  </span>
                </div>
              )}
              <span className="text-xs text-muted-foreground">
                Completed payments: priced in money at their locked rate, USD stablecoins 1:1; other tokens are not valued.{" "}
                <Link href="/dashboard/settings#account-currency" className="underline underline-offset-4">
                  Change the currency
                </Link>
              </span>
            </CardContent>
          </Card>
        </section>

        <section aria-label="Payments by status" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          {(["completed", "pending", "expired", "cancelled"] as const).map((status) => (
            <Link
              key={status}
              href={`/dashboard/payments?status=${status}`}
              className="rounded-xl focus-visible:outline-2 focus-visible:outline-ring"
            >
              <Card className="h-full transition-colors hover:bg-accent/50">
                <CardContent className="grid gap-1 p-4">
                  <span className="text-sm text-muted-foreground">{statusLabel("payment", status)}</span>
                  <span className="text-2xl font-semibold tabular-nums">{counts[status]}</span>
                </CardContent>
              </Card>
            </Link>
          ))}
        </section>

        <Card>
          <CardHeader className="flex-row items-start justify-between gap-4">
            <div className="grid gap-1">
              <CardTitle>Volume</CardTitle>
              <CardDescription>
                Completed payments, last {range} days, in {value.currency} by token
                {value.symbols.length > 0 && (
                  <>
                    {": "}
                    <Amount value={value.total} symbol={value.currency} className="font-medium text-foreground" />
                  </>
                )}
              </CardDescription>
            </div>
            {/* biome-ignore lint/a11y/useSemanticElements: a segmented control of links, not form controls: no <fieldset> */}
            <div role="group" aria-label="Range" className="flex rounded-md border p-0.5">
              {[7, 30].map((days) => (
                <Link
                  key={days}
                  href={`/dashboard?range=${days}`}
                  aria-current={range === days ? "true" : undefined}
                  className={cn(
                    "rounded px-2.5 py-1 text-xs font-medium whitespace-nowrap text-muted-foreground",
                    range === days && "bg-accent text-foreground",
                  )}
                >
                  {days} days
                </Link>
              ))}
            </div>
          </CardHeader>
          <CardContent>
            {value.symbols.length === 0 ? (
              <p className="py-10 text-center text-sm text-muted-foreground">
                {volume.symbols.length === 0
                  ? `No completed payments in the last ${range} days yet.`
                  : `No payments with a value in ${value.currency} in the last ${range} days: only tokens that are not valued.`}
              </p>
            ) : (
              <VolumeChart
                points={value.points}
                symbols={value.symbols}
                label={`Completed volume per day in ${value.currency}, by token: ${value.symbols.join(", ")}`}
              />
            )}
          </CardContent>
        </Card>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
          <Card className="lg:col-span-3">
            <CardHeader className="flex-row items-center justify-between">
              <CardTitle>Recent payments</CardTitle>
              <Link href="/dashboard/payments" className={buttonVariants({ variant: "ghost", size: "sm" })}>
                All payments <ArrowRight aria-hidden />
              </Link>
            </CardHeader>
            <CardContent className="px-2 sm:px-5">
              {recent.length === 0 ? (
                <EmptyState
                  icon={CreditCard}
                  title="No payments yet"
                  description="Create one here for an invoice, or let your shop create them with its API key."
                  action={
                    <Link href="/dashboard/payments/new" className={buttonVariants({ variant: "outline", size: "sm" })}>
                      Create a payment
                    </Link>
                  }
                />
              ) : (
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead>Amount</TableHead>
                      <TableHead>Status</TableHead>
                      <TableHead className="hidden sm:table-cell">Created</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {recent.map((p) => (
                      <TableRow key={p.sessionId}>
                        <TableCell>
                          <Link href={`/dashboard/payments/${p.sessionId}`} className="font-medium underline-offset-4 hover:underline">
                            <PriceHeadline price={p} />
                          </Link>
                          <PriceDetail price={p} className="mt-0.5" />
                          <span className="block text-xs whitespace-nowrap text-muted-foreground sm:hidden">
                            {formatDateTime(p.createdAt)}
                          </span>
                        </TableCell>
                        <TableCell>
                          <StatusBadge status={p.status} />
                        </TableCell>
                        <TableCell className="hidden text-muted-foreground sm:table-cell">{formatDateTime(p.createdAt)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </CardContent>
          </Card>

          <Card className="lg:col-span-2">
            <CardHeader>
              <CardTitle>Withdrawal wallets</CardTitle>
              <CardDescription>Balances read from the chain.</CardDescription>
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-4">
              {balances.length === 0 && (
                <p className="text-sm text-muted-foreground">
                  <Link href="/dashboard/domains" className="font-medium text-foreground underline underline-offset-4">
                    Add a domain
                  </Link>{" "}
                  to get its withdrawal wallet.
                </p>
              )}
              {balances.map((wallet) => (
                // grid-cols-1 (minmax(0, 1fr)): the domain truncates instead of widening the column past the card.
                <div key={wallet.domainId} className="grid grid-cols-1 gap-1.5">
                  <div className="flex items-center justify-between gap-2 text-sm">
                    <span className="min-w-0 truncate font-medium">{wallet.domain}</span>
                    <Address value={wallet.wallet} />
                  </div>
                  <ul className="grid gap-1 text-sm">
                    {wallet.balances.length === 0 && (
                      <li className="text-muted-foreground">
                        No tokens yet.{" "}
                        <Link href="/dashboard/tokens" className="font-medium text-foreground underline underline-offset-4">
                          Register a token
                        </Link>
                      </li>
                    )}
                    {wallet.balances.map((b) => (
                      <li key={b.tokenId} className="flex justify-between gap-2">
                        <span className="text-muted-foreground">
                          {b.symbol} <span className="text-xs">({networkLabel(b.network)})</span>
                        </span>
                        {b.balance === null ? (
                          <span className="text-muted-foreground">unavailable</span>
                        ) : (
                          <Amount value={b.balance} symbol={b.symbol} />
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}

function Checklist({ steps }: { steps: { id: string; label: string; href: string; done: boolean }[] }) {
  const next = steps.find((s) => !s.done);
  return (
    <Card className="border-brand/40">
      <CardHeader>
        <CardTitle>Get started</CardTitle>
        <CardDescription>
          {steps.filter((s) => s.done).length} of {steps.length} done. This list goes away once you have taken your first payment.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-2 sm:grid-cols-5">
          {steps.map((step, i) => (
            <li key={step.id}>
              <Link
                href={step.href}
                data-step={step.id}
                data-done={step.done}
                className={cn(
                  "flex h-full items-start gap-2 rounded-lg border p-3 text-sm transition-colors hover:bg-accent/50 focus-visible:outline-2 focus-visible:outline-ring",
                  step === next && "border-brand bg-brand/10",
                )}
              >
                {step.done ? (
                  <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-label="Done" />
                ) : (
                  <Circle className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-label="To do" />
                )}
                <span>
                  <span className="text-muted-foreground">{i + 1}. </span>
                  {step.label}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
