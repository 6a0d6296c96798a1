import { Badge } from "@/components/ui/badge";

const TONES: Record<string, "success" | "warning" | "danger" | "neutral"> = {
  completed: "success",
  pending: "warning",
  submitted: "warning",
  gas_sent: "warning",
  sweep_sent: "warning",
  batched: "warning",
  expired: "neutral",
  cancelled: "neutral",
  failed: "danger",
  held: "danger",
};

const LABELS: Record<string, string> = { gas_sent: "gas sent", sweep_sent: "sweeping", batched: "sweeping (batch)" };

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge variant={TONES[status] ?? "neutral"} data-status={status}>
      <span className="size-1.5 rounded-full bg-current" aria-hidden />
      {LABELS[status] ?? status}
    </Badge>
  );
}
