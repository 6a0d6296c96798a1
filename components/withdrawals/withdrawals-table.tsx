"use client";

import { createColumnHelper, getCoreRowModel, useReactTable } from "@tanstack/react-table";
import Link from "next/link";
import { Address } from "@/components/dashboard/address";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { DataTableCells, DataTableHeader } from "@/components/ui/data-table";
import { Table, TableBody, TableRow } from "@/components/ui/table";

export interface WithdrawalRow {
  withdrawalId: string;
  amount: string;
  token: string;
  toAddress: string;
  status: string;
  /** Null while it awaits approval, or once rejected: nothing was signed. */
  txHash: string | null;
  txUrl: string | null;
  domain: string;
  source: "api" | "dashboard";
  createdAt: string;
  confirmedAt: string | null;
  failureReason: string | null;
}

const column = createColumnHelper<WithdrawalRow>();
const columns = [
  column.accessor("amount", {
    header: "Amount",
    cell: ({ row }) => (
      <Link href={`/dashboard/withdrawals/${row.original.withdrawalId}`} className="font-medium underline-offset-4 hover:underline">
        <Amount value={row.original.amount} symbol={row.original.token} />
      </Link>
    ),
  }),
  column.accessor("status", {
    header: "Status",
    cell: ({ row }) => (
      <span className="grid gap-1">
        <StatusBadge kind="withdrawal" status={row.original.status} />
        {row.original.failureReason && <span className="max-w-xs text-xs text-destructive">{row.original.failureReason}</span>}
      </span>
    ),
  }),
  column.accessor("toAddress", { header: "To", cell: ({ getValue }) => <Address value={getValue()} /> }),
  column.accessor("txHash", {
    header: "Transaction",
    meta: { className: "hidden md:table-cell" },
    cell: ({ row }) =>
      row.original.txHash ? (
        <Address value={row.original.txHash} href={row.original.txUrl} />
      ) : (
        <span className="text-muted-foreground">—</span>
      ),
  }),
  column.accessor("domain", {
    header: "From",
    meta: { className: "hidden lg:table-cell" },
    cell: ({ row }) => (
      <span className="text-muted-foreground">
        {row.original.domain} · {row.original.source}
      </span>
    ),
  }),
  column.accessor("createdAt", {
    header: "Created",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ getValue }) => <span className="whitespace-nowrap text-muted-foreground">{formatDateTime(getValue())}</span>,
  }),
];

export function WithdrawalsTable({ rows }: { rows: WithdrawalRow[] }) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: (r) => r.withdrawalId });
  return (
    <Table>
      <DataTableHeader table={table} />
      <TableBody>
        {table.getRowModel().rows.map((row) => (
          <TableRow key={row.id} data-withdrawal-id={row.original.withdrawalId} data-status={row.original.status}>
            <DataTableCells row={row} />
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
