import { Send } from "lucide-react";
import type { Metadata } from "next";
import { CursorPagination } from "@/components/dashboard/cursor-pagination";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { RoleNote } from "@/components/dashboard/role-note";
import { AutoRefresh } from "@/components/payments/payment-actions";
import { PayoutBatchesTable } from "@/components/payouts/batches-table";
import { NewPayoutForm } from "@/components/payouts/new-payout-form";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { roleAllows } from "@/lib/accounts/members/roles";
import { isCursor } from "@/lib/base/cursor";
import { loadPayoutsPage } from "@/lib/web/dashboard/payouts/loaders";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Payouts" };

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<{ after?: string; before?: string }> }) {
  const params = await searchParams;
  const cursor = (text: string | undefined) => (text && isCursor(text) ? text : undefined);
  const { member, role, page, domains, tokens } = await withAccountPage("read", async ({ account, member, role }) => ({
    member,
    role,
    ...(await loadPayoutsPage(account.id, { limit: 20, after: cursor(params.after), before: cursor(params.before) })),
  }));
  const open = page.items.some((b) => b.status === "pending" || b.status === "sending");

  return (
    <>
      {open && <AutoRefresh />}
      <PageHeader
        title="Payouts"
        description="Pay many recipients at once from a domain's wallet, and follow each payment until the chain confirms it."
      />
      <div className="grid gap-6">
        {roleAllows(role, "money") ? (
          <NewPayoutForm
            domains={domains.map((d) => ({ id: d.domainId, label: d.domain }))}
            tokens={tokens.map((t) => ({ id: t.tokenId, label: `${t.symbol} (${networkLabel(t.network)})` }))}
            twoFactor={member.totpEnabledAt !== null}
          />
        ) : (
          <Card>
            <CardContent className="p-5">
              <RoleNote role={role} permission="money" />
            </CardContent>
          </Card>
        )}
        <Card>
          <CardHeader>
            <CardTitle>Batches</CardTitle>
          </CardHeader>
          <CardContent className="p-2 sm:p-3">
            {page.items.length === 0 ? (
              <EmptyState
                icon={Send}
                title="No payouts yet"
                description="Batches you send here or with POST /api/v1/payouts appear in this list."
              />
            ) : (
              <>
                <PayoutBatchesTable rows={page.items} />
                <CursorPagination newer={page.newer} older={page.older} basePath="/dashboard/payouts" params={{}} noun="payout batches" />
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
