import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { Page } from "@/lib/base/pagination";
import { type DeliveriesSelection, deliveriesHref } from "./deliveries-query";
import { LinkPending } from "./link-pending";

/**
 * The look of components/dashboard/pagination.tsx, with this card's own parameters (whPage) and
 * without scrolling to the top: several domain cards share the page.
 */
export function DeliveriesPagination({
  domainId,
  selection,
  meta,
}: {
  domainId: number;
  selection: DeliveriesSelection;
  meta: Page<unknown>["meta"];
}) {
  if (meta.pages <= 1) return null;
  const link = (page: number, label: string, children: React.ReactNode) =>
    page < 1 || page > meta.pages ? (
      <span className={cn(buttonVariants({ variant: "outline", size: "sm" }), "pointer-events-none opacity-50")} aria-disabled="true">
        {children}
      </span>
    ) : (
      <Link
        href={deliveriesHref(domainId, { ...selection, page })}
        scroll={false}
        className={buttonVariants({ variant: "outline", size: "sm" })}
        aria-label={label}
      >
        {children}
      </Link>
    );
  return (
    <nav aria-label="Deliveries pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
      <span>
        Page {meta.page} of {meta.pages} · {meta.total} deliveries
      </span>
      <span className="flex gap-2">
        {link(
          meta.page - 1,
          "Previous page of deliveries",
          <>
            <LinkPending>
              <ChevronLeft aria-hidden />
            </LinkPending>{" "}
            Previous
          </>,
        )}
        {link(
          meta.page + 1,
          "Next page of deliveries",
          <>
            Next{" "}
            <LinkPending>
              <ChevronRight aria-hidden />
            </LinkPending>
          </>,
        )}
      </span>
    </nav>
  );
}
