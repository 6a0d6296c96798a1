import { Inbox } from "lucide-react";
import Link from "next/link";
import { formatDateTime } from "@/components/dashboard/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { DeliveryResponse } from "@/components/webhooks/delivery-response";
import { DeliveryStatusBadge } from "@/components/webhooks/delivery-status-badge";
import { EventType } from "@/components/webhooks/event-type";
import { RedeliverButton } from "@/components/webhooks/redeliver-button";
import type { PaymentDelivery } from "@/lib/web/dashboard/payments/payment-webhooks";

/** The webhook events about one payment: what, where to, how it went, and a redeliver button. */
export function PaymentDeliveries({ deliveries }: { deliveries: PaymentDelivery[] }) {
  if (deliveries.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 px-4 py-6 text-center" data-testid="no-payment-deliveries">
        <Inbox className="size-5 text-muted-foreground" aria-hidden />
        <p className="text-sm font-medium">No webhook events for this payment yet</p>
        <p className="max-w-md text-sm text-muted-foreground">
          Your shop is told when a payment completes, is partly paid, expires, is cancelled or receives a late deposit, at the webhook URL
          of its domain.{" "}
          <Link href="/dashboard/webhooks" className="font-medium text-foreground underline underline-offset-4">
            Set up webhooks
          </Link>
        </p>
      </div>
    );
  }
  return (
    <Table aria-label="Webhook events of this payment">
      <TableHeader>
        <TableRow>
          <TableHead>Event</TableHead>
          <TableHead className="hidden md:table-cell">Sent to</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="hidden text-right sm:table-cell">Attempts</TableHead>
          <TableHead className="hidden sm:table-cell">Created</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((d) => (
          <TableRow key={d.deliveryId} data-delivery-id={d.deliveryId} data-event-type={d.eventType} data-status={d.status}>
            <TableCell>
              <span className="grid gap-0.5">
                <EventType type={d.eventType} />
                <span className="text-xs whitespace-nowrap text-muted-foreground sm:hidden">{formatDateTime(d.createdAt)}</span>
                <span className="truncate text-xs text-muted-foreground md:hidden">{d.domain ?? d.endpointUrl}</span>
              </span>
            </TableCell>
            <TableCell className="hidden md:table-cell">
              <span className="grid gap-0.5">
                <span className="text-sm">{d.domain ?? "—"}</span>
                <span className="max-w-[18rem] truncate font-mono text-xs text-muted-foreground" title={d.endpointUrl}>
                  {d.endpointUrl}
                </span>
              </span>
            </TableCell>
            <TableCell>
              <span className="grid gap-1">
                <DeliveryStatusBadge delivery={d} />
                {d.lastError && (
                  <span className="text-xs">
                    <DeliveryResponse delivery={d} />
                  </span>
                )}
              </span>
            </TableCell>
            <TableCell className="hidden text-right tabular-nums sm:table-cell">{d.attempts}</TableCell>
            <TableCell className="hidden whitespace-nowrap text-muted-foreground sm:table-cell">{formatDateTime(d.createdAt)}</TableCell>
            <TableCell className="text-right">
              {/* A pending one is already on its way; redelivering it would only reset its schedule. */}
              {d.status !== "pending" && <RedeliverButton deliveryId={d.deliveryId} eventType={d.eventType} />}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
