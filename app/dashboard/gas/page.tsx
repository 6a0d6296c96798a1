import { Fuel, TriangleAlert } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/dashboard/empty-state";
import { ExportButton } from "@/components/dashboard/export-button";
import { formatDateTime, groupDigits } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { VolumeChart } from "@/components/dashboard/volume-chart";
import { Bnb } from "@/components/gas/bnb";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { GAS_USAGE_DAYS, type GasUsageDay } from "@/lib/web/dashboard/gas/gas-usage";
import { loadGasPage } from "@/lib/web/dashboard/gas/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Gas usage" };

const KIND_COLUMNS = ["sweep", "batch", "withdrawal", "replacement"] as const satisfies readonly (keyof GasUsageDay)[];

export default async function GasPage() {
  const usage = await withAccountPage("read", ({ account }) => loadGasPage(account.id));
  const { today, days, kinds } = usage;
  const spentDays = days.filter((d) => d.total !== "0");
  const refused = today.withdrawalsRefused;

  return (
    <>
      <PageHeader
        title="Gas usage"
        description="The BNB this gateway's gas tank spends for you: to forward your incoming payments and to send your withdrawals. Your plan sets a daily budget; days are UTC."
        actions={<ExportButton href="/dashboard/gas/export" fallbackName="bsc-pay-gas.csv" />}
      />
      <div className="grid gap-6">
        {refused && (
          <div
            role="status"
            className="flex gap-3 rounded-lg border border-destructive/30 bg-destructive/10 px-4 py-3 text-sm"
            data-testid="gas-limit-reached"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
            <p>
              <span className="font-medium text-destructive">
                {refused === "gas-budget" ? "Today's gas budget is used up." : "Today's withdrawals are used up."}
              </span>{" "}
              New withdrawals are refused until {formatDateTime(today.resetsAt)}. Incoming payments are still forwarded to you.
            </p>
          </div>
        )}
        <section aria-label="Today" className="grid gap-4 md:grid-cols-3">
          <Card>
            <CardHeader>
              <CardDescription>Gas spent today</CardDescription>
              <CardTitle className="text-2xl">
                <Bnb value={today.spent} />
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2">
              {today.budget === null ? (
                <p className="text-xs text-muted-foreground">Your {today.plan} plan has no daily gas budget.</p>
              ) : (
                <>
                  <Progress value={today.budgetUsedPercent} aria-label={`${today.budgetUsedPercent}% of today's gas budget used`} />
                  <p className="text-xs text-muted-foreground">
                    of <Bnb value={today.budget} /> a day on the {today.plan} plan
                  </p>
                </>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardDescription>Withdrawals today</CardDescription>
              <CardTitle className="text-2xl tabular-nums">
                {groupDigits(String(today.withdrawals))}
                {today.withdrawalLimit !== null && (
                  <span className="text-base font-normal text-muted-foreground"> / {groupDigits(String(today.withdrawalLimit))}</span>
                )}
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2">
              {today.withdrawalLimit === null ? (
                <p className="text-xs text-muted-foreground">No daily limit on your plan.</p>
              ) : (
                <>
                  <Progress
                    value={today.withdrawalLimit === 0 ? 100 : (today.withdrawals * 100) / today.withdrawalLimit}
                    aria-label={`${today.withdrawals} of ${today.withdrawalLimit} withdrawals used today`}
                  />
                  <p className="text-xs text-muted-foreground">requests a day, whatever their outcome</p>
                </>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardDescription>Limits reset</CardDescription>
              <CardTitle className="text-2xl tabular-nums">00:00 UTC</CardTitle>
            </CardHeader>
            <CardContent>
              <p className="text-xs text-muted-foreground">
                Next at {formatDateTime(today.resetsAt)}. Forwarding your payments never waits for it.
              </p>
            </CardContent>
          </Card>
        </section>

        <Card>
          <CardHeader>
            <CardTitle>Last {GAS_USAGE_DAYS} days</CardTitle>
            <CardDescription>
              Per day and what it paid for. When one transaction forwards several payments, its cost is shared among them.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-6">
            {spentDays.length === 0 ? (
              <EmptyState
                icon={Fuel}
                title="No gas spent yet"
                description="When the gateway forwards a payment or sends a withdrawal for you, what it cost in BNB shows here."
              />
            ) : (
              <>
                <VolumeChart
                  yAxisWidth={72}
                  label={`Gas spent per day over the last ${GAS_USAGE_DAYS} days, by kind`}
                  symbols={KIND_COLUMNS.map((k) => kinds[k])}
                  points={days.map((d) => ({ day: d.day, ...Object.fromEntries(KIND_COLUMNS.map((k) => [kinds[k], d[k]])) }))}
                />
                <div className="overflow-x-auto">
                  <Table>
                    <TableHeader>
                      <TableRow>
                        <TableHead>Day</TableHead>
                        {KIND_COLUMNS.map((k) => (
                          <TableHead key={k} className="hidden text-right sm:table-cell">
                            {kinds[k]}
                          </TableHead>
                        ))}
                        <TableHead className="text-right">Total</TableHead>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {[...spentDays].reverse().map((d) => (
                        <TableRow key={d.day}>
                          <TableCell className="whitespace-nowrap tabular-nums">{d.day}</TableCell>
                          {KIND_COLUMNS.map((k) => (
                            <TableCell key={k} className="hidden text-right sm:table-cell">
                              {d[k] === "0" ? <span className="text-muted-foreground">—</span> : <Bnb value={d[k]} />}
                            </TableCell>
                          ))}
                          <TableCell className="text-right font-medium">
                            <Bnb value={d.total} />
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
