import { Address } from "@/components/dashboard/address";
import { groupDigits } from "@/components/dashboard/format";
import { StatusBadge } from "@/components/dashboard/status-badge";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PayoutItemRow } from "@/lib/web/dashboard/payouts/loaders";

/** A batch's items in the order sent: recipient, amount, reference, status (with why it failed) and transaction. */
export function PayoutItemsTable({ items, token }: { items: PayoutItemRow[]; token: string }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead className="hidden w-12 sm:table-cell">#</TableHead>
          <TableHead>Recipient</TableHead>
          <TableHead className="hidden text-right sm:table-cell">Amount</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="hidden md:table-cell">Reference</TableHead>
          <TableHead className="hidden lg:table-cell">Transaction</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.index} data-item={item.index} data-status={item.status}>
            <TableCell className="hidden tabular-nums text-muted-foreground sm:table-cell">{item.index + 1}</TableCell>
            <TableCell>
              <Address value={item.toAddress} />
              {/* On a phone the amount sits under the recipient: four columns do not fit 375 px. */}
              <span className="block text-xs tabular-nums text-muted-foreground sm:hidden">
                {groupDigits(item.amount)} {token}
              </span>
            </TableCell>
            <TableCell className="hidden whitespace-nowrap text-right tabular-nums sm:table-cell">
              {groupDigits(item.amount)} {token}
            </TableCell>
            <TableCell>
              <span className="grid justify-items-start gap-1">
                <StatusBadge kind="payout" status={item.status} />
                {item.failureReason && <span className="max-w-xs text-xs text-destructive">{item.failureReason}</span>}
              </span>
            </TableCell>
            <TableCell className="hidden max-w-48 truncate text-muted-foreground md:table-cell">{item.reference ?? "—"}</TableCell>
            <TableCell className="hidden lg:table-cell">
              {item.txHash ? <Address value={item.txHash} href={item.txUrl} /> : <span className="text-muted-foreground">—</span>}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
