import Link from "next/link";
import { Amount, formatDateTime } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { AccountPayoutBatch } from "@/lib/domain/payouts/account-batches";
import { BatchProgress } from "./batch-progress";

/** The account's payout batches: each links to its items. */
export function PayoutBatchesTable({ rows }: { rows: AccountPayoutBatch[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Total</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="hidden sm:table-cell">Progress</TableHead>
          <TableHead className="hidden lg:table-cell">From</TableHead>
          <TableHead className="hidden md:table-cell">Created</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((b) => (
          <TableRow key={b.batchId} data-batch-id={b.batchId} data-status={b.status}>
            <TableCell>
              <Link href={`/dashboard/payouts/${b.batchId}`} className="font-medium underline-offset-4 hover:underline">
                <Amount value={b.total} symbol={b.token} />
              </Link>
              <span className="block text-xs text-muted-foreground">{b.itemCount === 1 ? "1 recipient" : `${b.itemCount} recipients`}</span>
            </TableCell>
            <TableCell>
              <StatusBadge kind="payout_batch" status={b.status} />
            </TableCell>
            <TableCell className="hidden min-w-40 sm:table-cell">
              <BatchProgress counts={b.counts} total={b.itemCount} />
            </TableCell>
            <TableCell className="hidden text-muted-foreground lg:table-cell">
              {b.domain} · {b.source}
            </TableCell>
            <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">{formatDateTime(b.createdAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
