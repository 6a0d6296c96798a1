import { Check } from "lucide-react";
import type { Metadata } from "next";
import { ChoosePlanButton } from "@/components/account/choose-plan";
import { formatDate, groupDigits } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { shortBnb } from "@/components/gas/bnb";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { formatAmount } from "@/lib/base/money";
import { loadPlanPage } from "@/lib/web/dashboard/plan/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Plan" };

const quota = (n: number | null) => (n === null ? "Unlimited" : `${groupDigits(String(n))}`);

export default async function PlanPage() {
  const { current, plans } = await withAccountPage("read", ({ account }) => loadPlanPage(account.id));
  const limit = current.plan?.monthlySessionQuota ?? null;
  const used = current.usage.sessionsCreated;
  const percent = limit ? Math.round((used / limit) * 100) : 0;
  return (
    <>
      <PageHeader
        title="Plan"
        description="Your plan sets how many payment sessions you can create each month, and what the gateway may spend on gas for you each day."
      />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>{current.plan ? `${current.plan.name} plan` : "No active plan"}</CardTitle>
            <CardDescription>
              {current.plan
                ? `Active since ${formatDate(current.startsAt)}${current.endsAt ? `, until ${formatDate(current.endsAt)}` : ""}.`
                : "Choose a plan below: you can create payments once you have one."}
            </CardDescription>
          </CardHeader>
          {current.plan && (
            <CardContent className="grid gap-2">
              <div className="flex justify-between text-sm">
                <span>Sessions this month ({current.usage.period})</span>
                <span className="tabular-nums">
                  {groupDigits(String(used))} / {quota(limit)}
                </span>
              </div>
              {limit !== null ? (
                <Progress value={percent} aria-label={`${used} of ${limit} sessions used`} />
              ) : (
                <p className="text-xs text-muted-foreground">No monthly limit on this plan.</p>
              )}
              {current.usage.remaining === 0 && (
                <p className="text-sm text-destructive">
                  This month&apos;s payments are used up: new payments are refused until next month, or until you upgrade.
                </p>
              )}
            </CardContent>
          )}
        </Card>
        <section aria-label="Plans" className="grid gap-4 md:grid-cols-3">
          {plans.map((plan) => {
            const isCurrent = current.plan?.id === plan.id;
            return (
              <Card key={plan.id} className={isCurrent ? "border-brand" : undefined} data-plan={plan.id}>
                <CardHeader>
                  <CardTitle className="flex items-center justify-between gap-2">
                    {plan.name}
                    {isCurrent && <Badge variant="success">Current</Badge>}
                  </CardTitle>
                  <CardDescription>
                    {plan.priceUsdCents === 0 ? "Free" : `$${(plan.priceUsdCents / 100).toFixed(2)} a month`}
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-4">
                  <ul className="grid gap-2 text-sm">
                    {[
                      `${quota(plan.monthlySessionQuota)} payment sessions a month`,
                      plan.dailyGasBudget === null
                        ? "No daily gas budget"
                        : `${shortBnb(formatAmount(plan.dailyGasBudget, 18))} BNB of gas a day`,
                      `${quota(plan.dailyWithdrawals)} withdrawals a day`,
                      `${quota(plan.maxDomains)} domains`,
                    ].map((line) => (
                      <li key={line} className="flex items-center gap-2">
                        <Check className="size-4 shrink-0 text-success" aria-hidden />
                        {line}
                      </li>
                    ))}
                  </ul>
                  {!isCurrent &&
                    (plan.selfServe ? (
                      <ChoosePlanButton plan={plan.id} name={plan.name} />
                    ) : (
                      <p className="text-sm text-muted-foreground">Granted by the gateway&apos;s operator: ask them to upgrade you.</p>
                    ))}
                </CardContent>
              </Card>
            );
          })}
        </section>
      </div>
    </>
  );
}
