"use client";

import { createColumnHelper, type ExpandedState, getCoreRowModel, getExpandedRowModel, useReactTable } from "@tanstack/react-table";
import { ChevronRight } from "lucide-react";
import { Fragment, useState } from "react";
import { formatDateTime } from "@/components/dashboard/format";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { DataTableCells, DataTableHeader } from "@/components/ui/data-table";
import { Table, TableBody, TableCell, TableRow } from "@/components/ui/table";
import type { DeliveryView } from "@/lib/domain/webhooks/deliveries";
import { DeliveryResponse } from "./delivery-response";
import { DeliveryStatusBadge, deliveryState } from "./delivery-status-badge";
import { EventType } from "./event-type";
import { formatTime, fullDateTime } from "./format-time";
import { RedeliverButton } from "./redeliver-button";

const column = createColumnHelper<DeliveryView>();

const columns = [
  column.display({
    id: "expand",
    header: () => <span className="sr-only">Payload</span>,
    meta: { className: "w-10 pr-0" },
    cell: ({ row }) => (
      <Button
        type="button"
        variant="ghost"
        size="icon-sm"
        onClick={row.getToggleExpandedHandler()}
        aria-expanded={row.getIsExpanded()}
        aria-controls={`delivery-${row.original.deliveryId}-payload`}
        aria-label={`${row.getIsExpanded() ? "Hide" : "Show"} payload of ${row.original.eventType}`}
      >
        <ChevronRight aria-hidden className={cn("transition-transform", row.getIsExpanded() && "rotate-90")} />
      </Button>
    ),
  }),
  column.accessor("eventType", {
    header: "Event",
    cell: ({ row }) => (
      <span className="grid gap-0.5">
        <EventType type={row.original.eventType} />
        {/* On phones the Created column is hidden: keep the time under the event. */}
        <time
          dateTime={row.original.createdAt}
          title={fullDateTime(row.original.createdAt)}
          className="text-xs whitespace-nowrap text-muted-foreground sm:hidden"
        >
          {formatTime(row.original.createdAt)}
        </time>
      </span>
    ),
  }),
  column.accessor("status", {
    header: "Status",
    cell: ({ row }) => (
      <span className="grid gap-1">
        <DeliveryStatusBadge delivery={row.original} />
        {/* On phones the response column is hidden: an error must still show. */}
        {row.original.lastError && (
          <span className="text-xs sm:hidden">
            <DeliveryResponse delivery={row.original} />
          </span>
        )}
      </span>
    ),
  }),
  column.accessor("attempts", { header: "Attempts", meta: { className: "hidden text-right tabular-nums md:table-cell" } }),
  column.display({
    id: "response",
    header: "Last response",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ row }) => <DeliveryResponse delivery={row.original} />,
  }),
  column.accessor("createdAt", {
    header: "Created",
    meta: { className: "hidden sm:table-cell" },
    cell: ({ getValue }) => <span className="whitespace-nowrap text-muted-foreground">{formatDateTime(getValue())}</span>,
  }),
  column.display({
    id: "actions",
    header: () => <span className="sr-only">Actions</span>,
    meta: { className: "text-right" },
    // A pending one is already on its way; redelivering it would only reset its schedule.
    cell: ({ row }) =>
      row.original.status === "pending" ? null : (
        <RedeliverButton deliveryId={row.original.deliveryId} eventType={row.original.eventType} />
      ),
  }),
];

/** Newest first; a row opens to show the exact JSON body the receiver got. */
export function DeliveriesTable({ deliveries }: { deliveries: DeliveryView[] }) {
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const table = useReactTable({
    data: deliveries,
    columns,
    state: { expanded },
    onExpandedChange: setExpanded,
    getRowCanExpand: () => true,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
    getRowId: (row) => String(row.deliveryId),
  });
  return (
    <Table aria-label="Webhook deliveries">
      <DataTableHeader table={table} />
      <TableBody>
        {table.getRowModel().rows.map((row) => (
          <Fragment key={row.id}>
            <TableRow
              data-delivery-id={row.original.deliveryId}
              data-event-type={row.original.eventType}
              data-state={deliveryState(row.original)}
            >
              <DataTableCells row={row} />
            </TableRow>
            {row.getIsExpanded() && (
              <TableRow className="hover:bg-transparent">
                <TableCell
                  colSpan={row.getVisibleCells().length}
                  id={`delivery-${row.original.deliveryId}-payload`}
                  className="bg-muted/30"
                >
                  <PayloadDetails delivery={row.original} />
                </TableCell>
              </TableRow>
            )}
          </Fragment>
        ))}
      </TableBody>
    </Table>
  );
}

function PayloadDetails({ delivery }: { delivery: DeliveryView }) {
  return (
    // w-0 + min-w-full: the cell's width, never the payload's, so long JSON scrolls inside it
    // instead of widening the whole table on a phone.
    <div className="grid w-0 min-w-full gap-2 text-xs">
      <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">webhook-id</dt>
        <dd className="font-mono break-all">{delivery.eventId}</dd>
        <dt className="text-muted-foreground">Attempts</dt>
        <dd>
          {delivery.attempts}
          {delivery.lastAttemptAt && <span className="text-muted-foreground"> · last {formatDateTime(delivery.lastAttemptAt)}</span>}
          {delivery.deliveredAt && <span className="text-muted-foreground"> · delivered {formatDateTime(delivery.deliveredAt)}</span>}
        </dd>
      </dl>
      {/* biome-ignore lint/a11y/useSemanticElements: a <section> would lose the <pre>'s whitespace; the region names the payload */}
      <pre
        className="max-h-72 overflow-auto rounded-md border bg-background p-3 font-mono text-xs leading-relaxed"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable payload must take focus to be scrolled by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        role="region"
        aria-label={`Payload of ${delivery.eventType}`}
      >
        {JSON.stringify(delivery.payload, null, 2)}
      </pre>
    </div>
  );
}
