import { ScrollText, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { AuditTable } from "@/components/audit/audit-table";
import { CursorPagination } from "@/components/dashboard/cursor-pagination";
import { DateInput } from "@/components/dashboard/date-input";
import { EmptyState } from "@/components/dashboard/empty-state";
import { ExportButton } from "@/components/dashboard/export-button";
import { PageHeader } from "@/components/dashboard/page-header";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
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
      <Card className="mb-4">
        <CardContent className="p-4">
          {/* biome-ignore lint/a11y/useSemanticElements: role=search on the form itself; the <search> element is missing from older Safari */}
          <form
            method="get"
            className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-[1.4fr_1.4fr_1fr_1fr_auto] lg:items-end"
            role="search"
            aria-label="Filter the audit log"
          >
            <div className="col-span-2 grid gap-1.5 md:col-span-2 lg:col-span-1">
              <Label htmlFor="action">Action</Label>
              <NativeSelect id="action" name="action" defaultValue={text.action ?? ""}>
                <option value="">Any</option>
                {AUDIT_ACTION_NAMES.map((name) => (
                  <option key={name} value={name}>
                    {auditActionLabel(name)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="col-span-2 grid gap-1.5 md:col-span-2 lg:col-span-1">
              <Label htmlFor="actor">Actor</Label>
              <NativeSelect id="actor" name="actor" defaultValue={text.actor ?? ""}>
                <option value="">Anyone</option>
                {actors.map((a) => (
                  <option key={a.value} value={a.value}>
                    {a.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="from">
                From<span className="sr-only"> (YYYY-MM-DD)</span>
              </Label>
              <DateInput id="from" name="from" defaultValue={text.from} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="to">
                To<span className="sr-only"> (YYYY-MM-DD)</span>
              </Label>
              <DateInput id="to" name="to" defaultValue={text.to} />
            </div>
            <div className="col-span-2 flex gap-2 md:col-span-4 lg:col-span-1">
              <Button type="submit" className="flex-1 lg:flex-none">
                Apply
              </Button>
              {filtered && (
                <Link href="/dashboard/audit" className={buttonVariants({ variant: "ghost" })}>
                  Clear
                </Link>
              )}
            </div>
          </form>
        </CardContent>
      </Card>
      {!parsed.success && (
        <div className="mb-4">
          {/* biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue */}
          <FormError>Some filters were not understood ({parsed.error.issues[0]!.message}); showing every entry.</FormError>
        </div>
      )}
      {page.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title="No entries match"
            description="Try another action, actor or date range."
            action={
              <Link href="/dashboard/audit" className={buttonVariants({ variant: "outline", size: "sm" })}>
                Clear filters
              </Link>
            }
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
