import { Progress } from "@/components/ui/progress";
import type { PayoutBatchView } from "@/lib/domain/payouts/payout-view";

/** How far a batch got: paid, failed and still open, as a bar and in words. */
export function BatchProgress({ counts, total }: { counts: PayoutBatchView["counts"]; total: number }) {
  const done = counts.completed + counts.failed;
  const open = counts.pending + counts.sending;
  return (
    <div className="grid gap-1" data-testid="batch-progress">
      <Progress value={total === 0 ? 0 : (done / total) * 100} aria-label={`${done} of ${total} settled`} />
      <span className="text-xs text-muted-foreground tabular-nums">
        {counts.completed} paid
        {counts.failed > 0 && <span className="text-destructive"> · {counts.failed} failed</span>}
        {open > 0 && ` · ${open} pending`}
      </span>
    </div>
  );
}
