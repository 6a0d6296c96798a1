"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import { Address } from "@/components/dashboard/address";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Badge } from "@/components/ui/badge";
import { DataTableCells, DataTableHeader } from "@/components/ui/data-table";
import { Table, TableBody, TableRow } from "@/components/ui/table";
import type { UserPaymentRow } from "@/lib/dashboard/user-payments";

const column = createColumnHelper<UserPaymentRow>();

const columns = [
  column.accessor("amount", {
    header: "Amount",
    cell: ({ row }) => (
      <Link href={`/dashboard/payments/${row.original.sessionId}`} className="font-medium underline-offset-4 hover:underline">
        <Amount value={row.original.amount} symbol={row.original.token} />
      </Link>
    ),
  }),
  column.accessor("status", {
    header: "Status",
    cell: ({ row }) => (
      <span className="flex flex-wrap items-center gap-1">
        <StatusBadge status={row.original.status} />
        {row.original.overpaid && <Badge variant="outline">overpaid</Badge>}
        {row.original.late && <Badge variant="outline">late</Badge>}
        {row.original.receivedAmount && row.original.status !== "completed" && <Badge variant="outline">partial</Badge>}
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
    meta: { className: "hidden lg:table-cell" },
    cell: ({ getValue }) => <Address value={getValue()} />,
  }),
  column.accessor("network", {
    header: "Network",
    meta: { className: "hidden xl:table-cell" },
    cell: ({ getValue }) => <span className="text-muted-foreground">{getValue()}</span>,
  }),
  column.accessor("createdAt", {
    header: "Created",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ getValue }) => <span className="whitespace-nowrap text-muted-foreground">{formatDateTime(getValue())}</span>,
  }),
];

export function PaymentsTable({ rows }: { rows: UserPaymentRow[] }) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: (row) => row.sessionId });
  return (
    <Table>
      <DataTableHeader table={table} />
      <TableBody>
        {table.getRowModel().rows.map((row) => (
          <TableRow key={row.id} data-session-id={row.original.sessionId}>
            <DataTableCells row={row} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
