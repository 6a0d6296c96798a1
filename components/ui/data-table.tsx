"use client";

import { flexRender, type Row, type Table as TanstackTable } from "@tanstack/react-table";
import { TableCell, TableHead, TableHeader, TableRow } from "./table";

/** A column's `meta.className` (responsive visibility), on its header and on every cell. */
function columnClass(meta: unknown): string | undefined {
  return (meta as { className?: string } | undefined)?.className;
}

/** The header rows of a @tanstack/react-table table, in the `components/ui/table` style. */
export function DataTableHeader<T>({ table }: { table: TanstackTable<T> }) {
  return (
    <TableHeader>
      {table.getHeaderGroups().map((group) => (
        <TableRow key={group.id}>
          {group.headers.map((header) => (
            <TableHead key={header.id} className={columnClass(header.column.columnDef.meta)}>
              {flexRender(header.column.columnDef.header, header.getContext())}
            </TableHead>
          ))}
        </TableRow>
      ))}
    </TableHeader>
  );
}

/** The cells of one row; the caller renders the <TableRow> (its data attributes, expansion). */
export function DataTableCells<T>({ row }: { row: Row<T> }) {
  return row.getVisibleCells().map((cell) => (
    <TableCell key={cell.id} className={columnClass(cell.column.columnDef.meta)}>
      {flexRender(cell.column.columnDef.cell, cell.getContext())}
    </TableCell>
  ));
}
