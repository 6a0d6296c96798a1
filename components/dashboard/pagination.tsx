import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

/** Previous / next links that keep the page's other search parameters. */
export function Pagination({
  page,
  pages,
  total,
  basePath,
  params,
}: {
  page: number;
  pages: number;
  total: number;
  basePath: string;
  params: Record<string, string | undefined>;
}) {
  if (total === 0) return null;
  const href = (p: number) => {
    const search = new URLSearchParams(Object.entries({ ...params, page: String(p) }).filter((e): e is [string, string] => Boolean(e[1])));
    return `${basePath}?${search.toString()}`;
  };
  const link = (target: number, disabled: boolean, children: React.ReactNode, label: string) =>
    disabled ? (
      <span className={cn(buttonVariants({ variant: "outline", size: "sm" }), "pointer-events-none opacity-50")} aria-disabled="true">
        {children}
      </span>
    ) : (
      <Link href={href(target)} className={buttonVariants({ variant: "outline", size: "sm" })} aria-label={label}>
        {children}
      </Link>
    );
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-3 pt-4 text-sm text-muted-foreground">
      <span>
        Page {page} of {Math.max(1, pages)} · {total} in all
      </span>
      <span className="flex gap-2">
        {link(
          page - 1,
          page <= 1,
          <>
            <ChevronLeft aria-hidden /> Previous
          </>,
          "Previous page",
        )}
        {link(
          page + 1,
          page >= pages,
          <>
            Next <ChevronRight aria-hidden />
          </>,
          "Next page",
        )}
      </span>
    </nav>
  );
}
