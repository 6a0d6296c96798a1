import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/**
 * Newer / Older links of a list paged by cursor (lib/db/keyset.ts), keeping the page's other
 * search parameters. No page numbers and no total: nothing counts the history. At either end the
 * link stays in place, disabled, so the row of buttons does not jump.
 */
export function CursorPagination({
  newer,
  older,
  basePath,
  params,
  noun,
}: {
  newer: string | null;
  older: string | null;
  basePath: string;
  params: Record<string, string | undefined>;
  /** What the list holds, for the links' accessible names ("payments"). */
  noun: string;
}) {
  if (!newer && !older) return null;
  const href = (cursor: Record<string, string>) => {
    const search = new URLSearchParams(
      Object.entries({ ...params, ...cursor }).filter((e): e is [string, string] => Boolean(e[1])),
    ).toString();
    return `${basePath}?${search}`;
  };
  const link = (cursor: Record<string, string> | null, children: React.ReactNode, label: string, rel: "prev" | "next") =>
    cursor ? (
      <Link href={href(cursor)} className={buttonVariants({ variant: "outline", size: "sm" })} aria-label={label} rel={rel}>
        {children}
      </Link>
    ) : (
      <span className={cn(buttonVariants({ variant: "outline", size: "sm" }), "pointer-events-none opacity-50")} aria-disabled="true">
        {children}
      </span>
    );
  return (
    <nav aria-label={`Pages of ${noun}`} className="flex items-center justify-between gap-3 pt-4 text-sm text-muted-foreground">
      <span>{newer ? `Older ${noun}` : `Newest ${noun}`}</span>
      <span className="flex gap-2">
        {link(
          newer ? { before: newer } : null,
          <>
            <ChevronLeft aria-hidden /> Newer
          </>,
          `Newer ${noun}`,
          "prev",
        )}
        {link(
          older ? { after: older } : null,
          <>
            Older <ChevronRight aria-hidden />
          </>,
          `Older ${noun}`,
          "next",
        )}
      </span>
    </nav>
  );
}
