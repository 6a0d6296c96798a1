import { Badge } from "@/components/ui/badge";
import { type StatusKind, statusLabel, statusTone } from "@/lib/web/dashboard/shared/wording";

/** Every status on the dashboard, in one look and one capitalisation ("Completed", "Sending to your wallet"). */
export function StatusBadge({ status, kind = "payment" }: { status: string; kind?: StatusKind }) {
  return (
    <Badge variant={statusTone(status)} data-status={status}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden />
      {statusLabel(kind, status)}
    </Badge>
  );
}
