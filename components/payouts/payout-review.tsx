import { AlertTriangle } from "lucide-react";
import { Address } from "@/components/dashboard/address";
import { groupDigits } from "@/components/dashboard/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PayoutReview } from "@/lib/domain/payouts/dashboard-payouts";

/** What the server found in the file: the bad rows by line and why, then the rows that would be paid. */
export function PayoutReviewTables({ review }: { review: PayoutReview }) {
  return (
    <div className="grid gap-4">
      {review.bad.length > 0 && (
        <section
          aria-labelledby="bad-rows-title"
          data-testid="bad-rows"
          className="grid gap-2 rounded-lg border border-destructive/40 bg-destructive/5 p-3"
        >
          <h3 id="bad-rows-title" className="flex items-start gap-2 text-sm font-semibold text-destructive">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <span>
              {review.bad.length === 1 ? "1 row cannot be paid" : `${review.bad.length} rows cannot be paid`}; nothing is recorded until you
              fix or drop {review.bad.length === 1 ? "it" : "them"}.
            </span>
          </h3>
          <ul className="grid max-h-64 gap-2 overflow-y-auto">
            {review.bad.map((row) => (
              <li key={row.line} data-line={row.line} className="grid gap-0.5 rounded-md bg-background/60 px-3 py-2 text-sm">
                <span className="flex min-w-0 items-baseline gap-2">
                  <span className="shrink-0 font-medium tabular-nums">Line {row.line}</span>
                  <span className="truncate font-mono text-xs text-muted-foreground">
                    {[row.address, row.amount, row.reference].filter(Boolean).join(",") || "(empty)"}
                  </span>
                </span>
                <span className="text-destructive">{row.problems.join("; ")}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {review.rows.length > 0 && (
        <section aria-labelledby="valid-rows-title" className="grid gap-2">
          <h3 id="valid-rows-title" className="text-sm font-semibold">
            {review.count === 1 ? "1 payout" : `${review.count} payouts`} ·{" "}
            <span data-testid="review-total" className="tabular-nums">
              {groupDigits(review.total)} {review.token}
            </span>
            {review.skipped.length > 0 && <span className="font-normal text-muted-foreground"> · {review.skipped.length} dropped</span>}
          </h3>
          <div className="max-h-80 overflow-auto rounded-lg border">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead className="w-16">Line</TableHead>
                  <TableHead>Recipient</TableHead>
                  <TableHead className="text-right">Amount</TableHead>
                  <TableHead className="hidden sm:table-cell">Reference</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {review.rows.map((row) => (
                  <TableRow key={row.line} data-line={row.line}>
                    <TableCell className="tabular-nums text-muted-foreground">{row.line}</TableCell>
                    <TableCell>
                      <Address value={row.toAddress} />
                    </TableCell>
                    <TableCell className="text-right tabular-nums whitespace-nowrap">
                      {groupDigits(row.amount)} {review.token}
                    </TableCell>
                    <TableCell className="hidden max-w-48 truncate text-muted-foreground sm:table-cell">{row.reference ?? "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </section>
      )}
    </div>
  );
}
