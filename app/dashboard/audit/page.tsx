import { ScrollText, SearchX } from "lucide-react";
import type { Metadata } from "next";
import { AuditTable } from "@/components/audit/audit-table";
import { CursorPagination } from "@/components/dashboard/cursor-pagination";
import { EmptyState } from "@/components/dashboard/empty-state";
import { ExportButton } from "@/components/dashboard/export-button";
import { ClearFilters, DateRangeFilter, FilterBar, FilterSelect, FiltersNotUnderstood } from "@/components/dashboard/filter-bar";
import { PageHeader } from "@/components/dashboard/page-header";
import { Card, CardContent } from "@/components/ui/card";
import { AUDIT_ACTION_NAMES, auditActionLabel } from "@/lib/accounts/audit/actions";
import { auditFiltersSchema } from "@/lib/accounts/audit/audit-query";
import { isCursor } from "@/lib/base/cursor";
import { loadAuditPage } from "@/lib/web/dashboard/audit/audit-log";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const raw = await searchParams;
  const parsed = auditFiltersSchema.safeParse({ action: raw.action, actor: raw.actor, from: raw.from, to: raw.to });
  const { filters, text } = parsed.success ? parsed.data : auditFiltersSchema.parse({});
  const cursor = (value: string | undefined) => (value && isCursor(value, "integer") ? value : undefined);
  const { page, actors } = await withAccountPage("audit", ({ db, account }) =>
    loadAuditPage(db, account.id, filters, { after: cursor(raw.after), before: cursor(raw.before) }),
  );
  const filtered = Object.values(text).some(Boolean);
  const query = new URLSearchParams(Object.entries(text).filter((e): e is [string, string] => Boolean(e[1]))).toString();

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what to your account, when and from where: sign-ins, keys, members, payout settings and money sent out. Entries are never changed or removed."
        actions={<ExportButton href={`/dashboard/audit/export${query ? `?${query}` : ""}`} fallbackName="bsc-pay-audit.csv" />}
      />
      <FilterBar
        label="Filter the audit log"
        className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-[1.4fr_1.4fr_1fr_1fr_auto] lg:items-end"
        actionsClassName="col-span-2 flex gap-2 md:col-span-4 lg:col-span-1"
        filtered={filtered}
        clearHref="/dashboard/audit"
      >
        <FilterSelect
          id="action"
          label="Action"
          defaultValue={text.action}
          options={AUDIT_ACTION_NAMES.map((name) => ({ value: name, label: auditActionLabel(name) }))}
          className="col-span-2 md:col-span-2 lg:col-span-1"
        />
        <FilterSelect
          id="actor"
          label="Actor"
          defaultValue={text.actor}
          options={actors}
          anyLabel="Anyone"
          className="col-span-2 md:col-span-2 lg:col-span-1"
        />
        <DateRangeFilter from={text.from} to={text.to} />
      </FilterBar>
      {!parsed.success && (
        // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
        <FiltersNotUnderstood issue={parsed.error.issues[0]!.message} showing="showing every entry" />
      )}
      {page.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title="No entries match"
            description="Try another action, actor or date range."
            action={<ClearFilters href="/dashboard/audit" />}
          />
        ) : (
          <EmptyState
            icon={ScrollText}
            title="Nothing recorded yet"
            description="Sign-ins, API keys, members, payout settings, withdrawals, refunds and payouts are recorded here as they happen."
          />
        )
      ) : (
        <Card>
          <CardContent className="p-2 sm:p-3">
            <AuditTable rows={page.items.map((item) => ({ ...item, actionLabel: auditActionLabel(item.action) }))} />
            <CursorPagination newer={page.newer} older={page.older} basePath="/dashboard/audit" params={text} noun="entries" />
          </CardContent>
        </Card>
      )}
    </>
  );
}
