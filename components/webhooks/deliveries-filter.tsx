import Link from "next/link";
import { cn } from "@/components/ui/cn";
import { type DeliveriesSelection, type DeliveryStatusFilter, deliveriesHref } from "./deliveries-query";
import { LinkPending } from "./link-pending";

const FILTERS: { status: DeliveryStatusFilter | undefined; label: string }[] = [
  { status: undefined, label: "All" },
  { status: "pending", label: "Pending" },
  { status: "delivered", label: "Delivered" },
  { status: "failed", label: "Failed" },
];

/** Links, not buttons: a filter is a place (reloadable, shareable) and works before hydration. */
export function DeliveriesFilter({ domainId, selection, failed }: { domainId: number; selection: DeliveriesSelection; failed: number }) {
  return (
    <nav aria-label="Filter deliveries by status" className="-mx-1 overflow-x-auto px-1">
      <ul className="inline-flex gap-1 rounded-lg bg-muted p-1">
        {FILTERS.map(({ status, label }) => {
          const current = selection.status === status;
          return (
            <li key={label}>
              <Link
                href={deliveriesHref(domainId, { status })}
                scroll={false}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "inline-flex h-7 items-center gap-1.5 rounded-md px-2.5 text-xs font-medium whitespace-nowrap text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-3",
                  current && "bg-background text-foreground shadow-xs",
                )}
              >
                <LinkPending />
                {label}
                {status === "failed" && failed > 0 && (
                  <span className="rounded-full bg-destructive px-1.5 text-[0.625rem] leading-4 text-destructive-foreground">{failed}</span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
