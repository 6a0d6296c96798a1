import { CreditCard, Link2, Plus, Search, SearchX, X } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { CursorPagination } from "@/components/dashboard/cursor-pagination";
import { EmptyState } from "@/components/dashboard/empty-state";
import { ExportButton } from "@/components/dashboard/export-button";
import { ClearFilters, DateRangeFilter, FilterBar, FilterSelect, FiltersNotUnderstood } from "@/components/dashboard/filter-bar";
import { PageHeader } from "@/components/dashboard/page-header";
import { PaymentsTable } from "@/components/payments/payments-table";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { loadPaymentsPage, SESSION_STATUSES } from "@/lib/web/dashboard/payments/loaders";
import { paymentFiltersSchema } from "@/lib/web/dashboard/payments/user-payments";
import { networkLabel, statusLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Payments" };

const DEFAULT_LIMIT = paymentFiltersSchema.parse({}).limit;

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const raw = await searchParams;
  if (raw.page !== undefined) {
    // Numbered pages are gone (they were offsets that read every row before them): an old link opens the newest page.
    const rest = Object.entries(raw).filter((e): e is [string, string] => e[0] !== "page" && typeof e[1] === "string");
    redirect(`/dashboard/payments${rest.length ? `?${new URLSearchParams(rest)}` : ""}`);
  }
  const parsed = paymentFiltersSchema.safeParse(raw);
  const filters = parsed.success ? parsed.data : paymentFiltersSchema.parse({});
  const { page, tokens, domains, link } = await withAccountPage("read", ({ account }) => loadPaymentsPage(account.id, filters));
  const active = {
    linkId: filters.linkId?.toString(),
    status: filters.status,
    tokenId: filters.tokenId?.toString(),
    domainId: filters.domainId?.toString(),
    from: filters.from,
    to: filters.to,
    q: filters.q,
  };
  const filtered = Object.values(active).some(Boolean);
  const queryOf = (params: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  const exportQuery = queryOf(active);
  const withoutLink = queryOf({ ...active, linkId: undefined });

  return (
    <>
      <PageHeader
        title="Payments"
        description="Every payment of your shop: created by your API keys or here. Click a row to see what happened to it."
        actions={
          <>
            <Link href="/dashboard/payments/new" className={buttonVariants({ variant: "brand" })}>
              <Plus aria-hidden /> New payment
            </Link>
            <ExportButton href={`/dashboard/payments/export${exportQuery ? `?${exportQuery}` : ""}`} fallbackName="bsc-pay-payments.csv" />
          </>
        }
      />
      {filters.linkId && (
        <div className="mb-3 flex flex-wrap items-center gap-2" data-testid="link-filter">
          <span className="inline-flex max-w-full items-center gap-1.5 rounded-full border bg-card py-1 pr-1 pl-3 text-sm">
            <Link2 className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
            <span className="truncate">
              Link: <span className="font-medium">{link ? link.title : "not found"}</span>
            </span>
            <Link
              href={`/dashboard/payments${withoutLink ? `?${withoutLink}` : ""}`}
              className="inline-flex size-6 shrink-0 items-center justify-center rounded-full text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              aria-label="Remove the payment link filter"
            >
              <X className="size-3.5" aria-hidden />
            </Link>
          </span>
        </div>
      )}
      <FilterBar
        label="Filter payments"
        className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-[2.2fr_repeat(5,1fr)_auto] lg:items-end"
        actionsClassName="col-span-2 flex gap-2 md:col-span-3 lg:col-span-1"
        filtered={filtered}
        clearHref="/dashboard/payments"
        after={
          <p id="q-hint" className="col-span-full text-muted-foreground text-xs">
            Search finds the start of an order reference, a payment id, a transaction hash, a deposit or payer address (0x…), or a metadata
            value exactly (<code className="font-mono">key:value</code> for one field). Descriptions are not searched.
          </p>
        }
      >
        {filters.linkId && <input type="hidden" name="linkId" value={filters.linkId} />}
        <div className="col-span-2 grid gap-1.5 md:col-span-3 lg:col-span-1">
          <Label htmlFor="q">Search</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
            <Input
              id="q"
              name="q"
              defaultValue={filters.q ?? ""}
              placeholder="Order ref, payment id, 0x… hash or address, key:value"
              aria-describedby="q-hint"
              className="pl-8"
            />
          </div>
        </div>
        <FilterSelect
          id="status"
          label="Status"
          defaultValue={filters.status}
          options={SESSION_STATUSES.map((s) => ({ value: s, label: statusLabel("payment", s) }))}
        />
        <FilterSelect
          id="tokenId"
          label="Token"
          defaultValue={filters.tokenId?.toString()}
          options={tokens.map((t) => ({ value: t.tokenId, label: `${t.symbol} (${networkLabel(t.network)})` }))}
        />
        <FilterSelect
          id="domainId"
          label="Domain"
          defaultValue={filters.domainId?.toString()}
          options={domains.map((d) => ({ value: d.domainId, label: d.domain }))}
        />
        <DateRangeFilter from={filters.from} to={filters.to} />
      </FilterBar>
      {!parsed.success && (
        // biome-ignore lint/style/noNonNullAssertion: a failed zod parse reports at least one issue
        <FiltersNotUnderstood issue={parsed.error.issues[0]!.message} showing="showing all payments" />
      )}
      {page.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title={link && !withoutLink ? "No payments through this link yet" : "No payments match"}
            description={
              link && !withoutLink
                ? "A payment appears here once a payer opens the link and pays."
                : "Try another status, token, date range or search. Search finds the start of an order reference, a payment id, a transaction hash, a deposit or payer address, or an exact metadata value."
            }
            action={<ClearFilters href="/dashboard/payments" />}
          />
        ) : (
          <EmptyState
            icon={CreditCard}
            title="No payments yet"
            description="Create one here for a single invoice, or let your shop create them with its API key (see the docs)."
            action={
              <Link href="/dashboard/payments/new" className={buttonVariants({ variant: "outline", size: "sm" })}>
                Create a payment
              </Link>
            }
          />
        )
      ) : (
        <Card>
          <CardContent className="p-2 sm:p-3">
            <PaymentsTable rows={page.items} />
            <CursorPagination
              newer={page.newer}
              older={page.older}
              basePath="/dashboard/payments"
              // A page size other than the default stays with the pages.
              params={{ ...active, limit: filters.limit === DEFAULT_LIMIT ? undefined : String(filters.limit) }}
              noun="payments"
            />
          </CardContent>
        </Card>
      )}
    </>
  );
}
