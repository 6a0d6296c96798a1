import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import type { KeysetPage } from "@/lib/web/dashboard/webhooks/summaries";
import { type DeliveriesSelection, deliveriesHref } from "./deliveries-query";
import { LinkPending } from "./link-pending";

/**
 * Newer / Older links of a card's deliveries, paged by cursor like the payments list
 * (components/dashboard/cursor-pagination.tsx) with this card's own parameters (whAfter, whBefore)
 * and without scrolling to the top: several domain cards share the page. No total: nothing counts the history.
 */
export function DeliveriesPagination({
  domainId,
  selection,
  page,
}: {
  domainId: number;
  selection: DeliveriesSelection;
  page: Pick<KeysetPage<unknown>, "newer" | "older">;
}) {
  if (!page.newer && !page.older) return null;
  const link = (cursor: Partial<DeliveriesSelection> | null, label: string, rel: "prev" | "next", children: React.ReactNode) =>
    cursor ? (
      <Link
        href={deliveriesHref(domainId, { status: selection.status, ...cursor })}
        scroll={false}
        className={buttonVariants({ variant: "outline", size: "sm" })}
        aria-label={label}
        rel={rel}
      >
        {children}
      </Link>
    ) : (
      <span className={cn(buttonVariants({ variant: "outline", size: "sm" }), "pointer-events-none opacity-50")} aria-disabled="true">
        {children}
      </span>
    );
  return (
    <nav aria-label="Deliveries pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground">
      <span>{page.newer ? "Older deliveries" : "Newest deliveries"}</span>
      <span className="flex gap-2">
        {link(
          page.newer ? { before: page.newer } : null,
          "Newer deliveries",
          "prev",
          <>
            <LinkPending>
              <ChevronLeft aria-hidden />
            </LinkPending>{" "}
            Newer
          </>,
        )}
        {link(
          page.older ? { after: page.older } : null,
          "Older deliveries",
          "next",
          <>
            Older{" "}
            <LinkPending>
              <ChevronRight aria-hidden />
            </LinkPending>
          </>,
        )}
      </span>
    </nav>
  );
}
