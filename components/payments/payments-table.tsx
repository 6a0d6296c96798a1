"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import type { KeyboardEvent } from "react";
import { Address } from "@/components/dashboard/address";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { PriceDetail, PriceHeadline } from "@/components/dashboard/price";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Badge } from "@/components/ui/badge";
import { DataTableCells, DataTableHeader } from "@/components/ui/data-table";
import { Table, TableBody, TableRow } from "@/components/ui/table";
import type { ListedPaymentRow as UserPaymentRow } from "@/lib/web/dashboard/payments/user-payments";
import { networkLabel, orderLabel } from "@/lib/web/dashboard/shared/wording";

const column = createColumnHelper<UserPaymentRow>();

function OrderText({ row, className }: { row: UserPaymentRow; className?: string }) {
  const label = orderLabel(row);
  if (!label) return <span className={`text-muted-foreground ${className ?? ""}`}>—</span>;
  return (
    <span
      className={`block max-w-[14rem] truncate ${label.kind === "orderId" ? "font-medium" : label.kind === "metadata" ? "font-mono text-xs text-muted-foreground" : ""} ${className ?? ""}`}
      title={label.text}
      data-order-kind={label.kind}
    >
      {label.text}
    </span>
  );
}

const columns = [
  column.accessor("amount", {
    header: "Amount",
    cell: ({ row }) => (
      <span className="grid gap-0.5">
        {/* The row's link: its ::after covers the whole row, so a click anywhere on it opens the payment. */}
        <Link
          href={`/dashboard/payments/${row.original.sessionId}`}
          data-row-link
          className="font-medium underline-offset-4 after:absolute after:inset-0 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          <PriceHeadline price={row.original} />
        </Link>
        {/* A fiat price's token amount and rate, under it. */}
        <PriceDetail price={row.original} />
        {/* On phones the Order and Created columns are hidden: keep both under the amount. */}
        <OrderText row={row.original} className="text-xs sm:hidden" />
        <span className="text-xs whitespace-nowrap text-muted-foreground sm:hidden">{formatDateTime(row.original.createdAt)}</span>
      </span>
    ),
  }),
  column.display({
    id: "order",
    header: "Order",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ row }) => <OrderText row={row.original} />,
  }),
  column.accessor("status", {
    header: "Status",
    cell: ({ row }) => (
      <span className="flex flex-wrap items-center gap-1">
        <StatusBadge status={row.original.status} />
        {row.original.overpaid && <Badge variant="outline">Overpaid</Badge>}
        {row.original.late && <Badge variant="outline">Late</Badge>}
        {row.original.receivedAmount && row.original.status !== "completed" && <Badge variant="outline">Partial</Badge>}
        {row.original.refunds.refunded && (
          <Badge variant="outline" data-refunds="refunded">
            Refunded {row.original.refunds.refunded} {row.original.token}
          </Badge>
        )}
        {row.original.refunds.pending && (
          <Badge variant="warning" data-refunds="pending">
            Refund pending
          </Badge>
        )}
      </span>
    ),
  }),
  column.accessor("receivedAmount", {
    header: "Received",
    meta: { className: "hidden md:table-cell" },
    cell: ({ row }) => <Amount value={row.original.receivedAmount} symbol={row.original.token} />,
  }),
  column.accessor("depositAddress", {
    header: "Deposit address",
    meta: { className: "hidden xl:table-cell" },
    // Above the row's link, so its tooltip and copy button stay usable.
    cell: ({ getValue }) => <Address value={getValue()} className="relative z-10" />,
  }),
  column.accessor("network", {
    header: "Network",
    meta: { className: "hidden xl:table-cell" },
    cell: ({ getValue }) => <span className="whitespace-nowrap text-muted-foreground">{networkLabel(getValue())}</span>,
  }),
  column.accessor("createdAt", {
    header: "Created",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ getValue }) => <span className="whitespace-nowrap text-muted-foreground">{formatDateTime(getValue())}</span>,
  }),
];

/** Up and down arrows move between the rows' links (Tab does too); Enter opens one. */
function moveBetweenRows(event: KeyboardEvent<HTMLTableSectionElement>) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const target = event.target as HTMLElement;
  if (!target.matches("a[data-row-link]")) return;
  const row = target.closest("tr");
  const next = event.key === "ArrowDown" ? row?.nextElementSibling : row?.previousElementSibling;
  const link = next?.querySelector<HTMLElement>("a[data-row-link]");
  if (!link) return;
  event.preventDefault();
  link.focus();
}

export function PaymentsTable({ rows }: { rows: UserPaymentRow[] }) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: (row) => row.sessionId });
  return (
    <Table aria-label="Payments">
      <DataTableHeader table={table} />
      <TableBody onKeyDown={moveBetweenRows}>
        {table.getRowModel().rows.map((row) => (
          <TableRow key={row.id} data-session-id={row.original.sessionId} className="relative cursor-pointer focus-within:bg-muted/50">
            <DataTableCells row={row} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
