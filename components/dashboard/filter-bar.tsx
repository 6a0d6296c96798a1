import Link from "next/link";
import type { ReactNode } from "react";
import { DateInput } from "@/components/dashboard/date-input";
import { Button, buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { FormError } from "@/components/ui/field";
import { NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/**
 * The filters above a list: a GET form (a filtered list is a place: reloadable, shareable, and it
 * works before hydration), its fields, Apply and — once something is filtered — Clear. `className`
 * lays out the form's grid and `actionsClassName` the buttons' cell, per page.
 */
export function FilterBar({
  label,
  className,
  actionsClassName,
  filtered,
  clearHref,
  children,
  after,
}: {
  /** The search landmark's name ("Filter payments"). */
  label: string;
  className: string;
  actionsClassName: string;
  filtered: boolean;
  clearHref: string;
  children: ReactNode;
  /** Under the fields, inside the form (a hint the fields point to). */
  after?: ReactNode;
}) {
  return (
    <Card className="mb-4">
      <CardContent className="p-4">
        {/* biome-ignore lint/a11y/useSemanticElements: role=search on the form itself; the <search> element is missing from older Safari */}
        <form method="get" className={className} role="search" aria-label={label}>
          {children}
          <div className={actionsClassName}>
            <Button type="submit" className="flex-1 lg:flex-none">
              Apply
            </Button>
            {filtered && (
              <Link href={clearHref} className={buttonVariants({ variant: "ghost" })}>
                Clear
              </Link>
            )}
          </div>
          {after}
        </form>
      </CardContent>
    </Card>
  );
}

/** One choice of a filter bar: "Any" (or `anyLabel`) first, which filters nothing. The field's name is its id. */
export function FilterSelect({
  id,
  label,
  defaultValue,
  options,
  anyLabel = "Any",
  className,
}: {
  id: string;
  label: string;
  defaultValue: string | undefined;
  options: readonly { value: string | number; label: string }[];
  anyLabel?: string;
  className?: string;
}) {
  return (
    <div className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} name={id} defaultValue={defaultValue ?? ""}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** The From and To fields of a filter bar (YYYY-MM-DD, UTC). */
export function DateRangeFilter({ from, to }: { from: string | undefined; to: string | undefined }) {
  return (
    <>
      <div className="grid gap-1.5">
        <Label htmlFor="from">
          From<span className="sr-only"> (YYYY-MM-DD)</span>
        </Label>
        <DateInput id="from" name="from" defaultValue={from} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="to">
          To<span className="sr-only"> (YYYY-MM-DD)</span>
        </Label>
        <DateInput id="to" name="to" defaultValue={to} />
      </div>
    </>
  );
}

/** Filters the page could not read: it says so and what it shows instead (`issue`: the schema's first complaint). */
export function FiltersNotUnderstood({ issue, showing }: { issue: string | undefined; showing: string }) {
  return (
    <div className="mb-4">
      <FormError>
        Some filters were not understood ({issue}); {showing}.
      </FormError>
    </div>
  );
}

/** The empty filtered list's way back: every row again. */
export function ClearFilters({ href }: { href: string }) {
  return (
    <Link href={href} className={buttonVariants({ variant: "outline", size: "sm" })}>
      Clear filters
    </Link>
  );
}
