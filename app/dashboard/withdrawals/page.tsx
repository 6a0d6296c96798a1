import { ArrowUpRight } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { CursorPagination } from "@/components/dashboard/cursor-pagination";
import { EmptyState } from "@/components/dashboard/empty-state";
import { ExportButton } from "@/components/dashboard/export-button";
import { PageHeader } from "@/components/dashboard/page-header";
import { AutoRefresh } from "@/components/payments/payment-actions";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { SendWithdrawalForm } from "@/components/withdrawals/send-form";
import { WithdrawalsTable } from "@/components/withdrawals/withdrawals-table";
import { roleAllows } from "@/lib/accounts/members/roles";
import { isCursor } from "@/lib/base/cursor";
import { explorerTxUrl } from "@/lib/web/dashboard/shared/explorer";
import { networkLabel, statusLabel } from "@/lib/web/dashboard/shared/wording";
import { loadWithdrawalsPage, WITHDRAWAL_STATUSES, type WithdrawalStatus } from "@/lib/web/dashboard/withdrawals/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Withdrawals" };

export default async function WithdrawalsPage({
  searchParams,
}: {
  searchParams: Promise<{ page?: string; status?: string; after?: string; before?: string }>;
}) {
  const params = await searchParams;
  const status = (WITHDRAWAL_STATUSES as readonly string[]).includes(params.status ?? "") ? (params.status as WithdrawalStatus) : undefined;
  // Numbered pages are gone (offsets read every row before them): an old link opens the newest page.
  if (params.page !== undefined) redirect(status ? `/dashboard/withdrawals?status=${status}` : "/dashboard/withdrawals");
  const cursor = (text: string | undefined) => (text && isCursor(text) ? text : undefined);
  const { member, role, page, domains, tokens } = await withAccountPage("read", async ({ account, member, role }) => ({
    member,
    role,
    ...(await loadWithdrawalsPage(account.id, { limit: 20, status, after: cursor(params.after), before: cursor(params.before) })),
  }));
  const rows = page.items.map((w) => ({ ...w, txUrl: w.txHash ? explorerTxUrl(w.network, w.txHash) : null }));

  return (
    <>
      {rows.some((w) => w.status === "submitted") && <AutoRefresh />}
      <PageHeader
        title="Withdrawals"
        description="Send tokens out of your domains' wallets, and follow them until the chain confirms them."
        actions={
          roleAllows(role, "reports") && (
            <ExportButton
              href={`/dashboard/withdrawals/export${status ? `?status=${status}` : ""}`}
              fallbackName="bsc-pay-withdrawals.csv"
            />
          )
        }
      />
      <div className="grid gap-6">
        {roleAllows(role, "money") && (
          <SendWithdrawalForm
            domains={domains.map((d) => ({ id: d.domainId, label: d.domain }))}
            tokens={tokens.map((t) => ({ id: t.tokenId, label: `${t.symbol} (${networkLabel(t.network)})` }))}
            twoFactor={member.totpEnabledAt !== null}
          />
        )}
        <Card>
          <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
            <CardTitle>History</CardTitle>
            <nav aria-label="Filter by status" className="flex flex-wrap gap-1">
              {[undefined, ...WITHDRAWAL_STATUSES].map((s) => (
                <Link
                  key={s ?? "all"}
                  href={s ? `/dashboard/withdrawals?status=${s}` : "/dashboard/withdrawals"}
                  aria-current={status === s ? "page" : undefined}
                  className={cn(buttonVariants({ variant: "ghost", size: "sm" }), status === s && "bg-accent text-foreground")}
                >
                  {s ? statusLabel("withdrawal", s) : "All"}
                </Link>
              ))}
            </nav>
          </CardHeader>
          <CardContent className="p-2 sm:p-3">
            {rows.length === 0 ? (
              <EmptyState
                icon={ArrowUpRight}
                title={status ? `No withdrawals with status “${statusLabel("withdrawal", status)}”` : "No withdrawals yet"}
                description="Withdrawals you send here or with POST /api/v1/withdrawal/send appear in this list."
              />
            ) : (
              <>
                <WithdrawalsTable rows={rows} />
                <CursorPagination
                  newer={page.newer}
                  older={page.older}
                  basePath="/dashboard/withdrawals"
                  params={{ status }}
                  noun="withdrawals"
                />
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
