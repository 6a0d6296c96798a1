"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import { ExternalLink, List, Loader2, MoreHorizontal, Pencil, Power, PowerOff } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { toast } from "sonner";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { Button, buttonVariants } from "@/components/ui/button";
import { DataTableCells, DataTableHeader } from "@/components/ui/data-table";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Table, TableBody, TableRow } from "@/components/ui/table";
import type { PaymentLinkView } from "@/lib/domain/payment-links/link-view";
import { updateLinkAction } from "@/lib/web/dashboard/links/actions";
import { LinkForm } from "./link-form";

/** "12.5 USDT", "25.00 USD in USDT" (a price in a currency), or "From 5 USDT (payer chooses)". */
export function linkPrice(link: Pick<PaymentLinkView, "amount" | "minAmount" | "token" | "currency">): string {
  if (link.amount !== null && link.currency) return `${link.amount} ${link.currency} in ${link.token}`;
  return link.amount !== null ? `${link.amount} ${link.token}` : `From ${link.minAmount ?? "0"} ${link.token} (payer chooses)`;
}

function ActiveBadge({ active }: { active: boolean }) {
  return (
    <Badge variant={active ? "success" : "neutral"} data-active={active}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden />
      {active ? "Active" : "Inactive"}
    </Badge>
  );
}

const column = createColumnHelper<PaymentLinkView>();

const columns = [
  column.accessor("title", {
    header: "Link",
    cell: ({ row }) => (
      <span className="grid min-w-0 gap-0.5">
        <span className="font-medium break-words sm:max-w-[16rem] sm:truncate" title={row.original.title}>
          {row.original.title}
        </span>
        {/* On phones the Price and Status columns are hidden: keep both under the title. */}
        <span className="text-xs text-muted-foreground sm:hidden">{linkPrice(row.original)}</span>
        <span className="sm:hidden">
          <ActiveBadge active={row.original.active} />
        </span>
        <span className="flex items-center gap-0.5 text-xs text-muted-foreground">
          {/* The path only: every link shares the gateway's address; copy and open use the whole URL. */}
          <span className="hidden font-mono md:inline" title={row.original.url}>
            /l/{row.original.slug}
          </span>
          <CopyButton value={row.original.url} label={`Copy the link of ${row.original.title}`} />
          <a
            href={row.original.url}
            target="_blank"
            rel="noreferrer"
            className={buttonVariants({ variant: "ghost", size: "icon-sm", className: "text-muted-foreground" })}
            aria-label={`Open the page of ${row.original.title}`}
          >
            <ExternalLink aria-hidden />
          </a>
        </span>
      </span>
    ),
  }),
  column.display({
    id: "price",
    header: "Price",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ row }) => <span className="whitespace-nowrap">{linkPrice(row.original)}</span>,
  }),
  column.accessor("active", {
    header: "Status",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ getValue }) => <ActiveBadge active={getValue()} />,
  }),
  column.display({
    id: "payments",
    header: "Payments",
    meta: { className: "text-right" },
    cell: ({ row }) => (
      <span className="tabular-nums" data-testid="link-payments">
        {row.original.stats.payments}
      </span>
    ),
  }),
  column.display({
    id: "received",
    header: "Received",
    meta: { className: "hidden md:table-cell text-right" },
    cell: ({ row }) => <Amount value={row.original.stats.received} symbol={row.original.token} />,
  }),
  column.display({
    id: "last",
    header: "Last payment",
    meta: { className: "hidden lg:table-cell" },
    cell: ({ row }) => (
      <span className="whitespace-nowrap text-muted-foreground">
        {row.original.stats.lastPaymentAt ? formatDateTime(row.original.stats.lastPaymentAt) : "—"}
      </span>
    ),
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    meta: { className: "w-10 text-right" },
    cell: ({ row }) => <LinkActions link={row.original} />,
  }),
];

export function LinksTable({ links }: { links: PaymentLinkView[] }) {
  const table = useReactTable({ data: links, columns, getCoreRowModel: getCoreRowModel(), getRowId: (link) => String(link.linkId) });
  return (
    <Table aria-label="Payment links">
      <DataTableHeader table={table} />
      <TableBody>
        {table.getRowModel().rows.map((row) => (
          <TableRow key={row.id} data-link-id={row.original.linkId} data-slug={row.original.slug}>
            <DataTableCells row={row} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Edit, activate/deactivate, and the link's payments. */
function LinkActions({ link }: { link: PaymentLinkView }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [pending, start] = useTransition();
  const toggle = () =>
    start(async () => {
      const result = await updateLinkAction({ linkId: link.linkId, active: !link.active });
      if (!result.ok) toast.error("Link not changed", { description: result.error });
      else
        toast.success(result.data.active ? "Link activated" : "Link deactivated", {
          description: result.data.active ? "Payers can pay on its page again." : "Its page says it is no longer active.",
        });
      router.refresh();
    });
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${link.title}`} disabled={pending}>
            {pending ? <Loader2 className="animate-spin" aria-hidden /> : <MoreHorizontal aria-hidden />}
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setEditing(true)}>
            <Pencil aria-hidden /> Edit
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={toggle}>
            {link.active ? <PowerOff aria-hidden /> : <Power aria-hidden />} {link.active ? "Deactivate" : "Activate"}
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link href={`/dashboard/payments?linkId=${link.linkId}`}>
              <List aria-hidden /> View payments
            </Link>
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={editing} onOpenChange={setEditing}>
        <DialogContent className="max-w-xl">
          <DialogHeader>
            <DialogTitle>Edit payment link</DialogTitle>
            <DialogDescription>Changes show on its page at once; payments already made keep their amount.</DialogDescription>
          </DialogHeader>
          <LinkForm
            link={link}
            onSaved={(saved) => {
              setEditing(false);
              toast.success(`${saved.title} saved`);
              router.refresh();
            }}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}
