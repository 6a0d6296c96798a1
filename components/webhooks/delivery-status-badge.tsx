import { Badge } from "@/components/ui/badge";
import type { DeliveryView } from "@/lib/domain/webhooks/deliveries";
import { formatTime, fullDateTime } from "./format-time";

/**
 * A pending delivery that has already failed once is "Retrying": the merchant should see that
 * their endpoint is answering badly before the retries run out, not only when it has failed.
 */
export function deliveryState(delivery: Pick<DeliveryView, "status" | "attempts">): "pending" | "retrying" | "delivered" | "failed" {
  return delivery.status === "pending" && delivery.attempts > 0 ? "retrying" : delivery.status;
}

/**
 * The warning tone's text is 4.4:1 on its own tint in the light theme (below AA), so pending
 * badges keep the tint and dot but use the body text colour.
 */
export const WARNING_BADGE = "text-foreground [&>[data-dot]]:bg-warning";

const LOOK = {
  pending: { variant: "warning", label: "Pending" },
  retrying: { variant: "warning", label: "Retrying" },
  delivered: { variant: "success", label: "Delivered" },
  failed: { variant: "danger", label: "Failed" },
} as const;

export function DeliveryStatusBadge({ delivery }: { delivery: Pick<DeliveryView, "status" | "attempts" | "nextAttemptAt"> }) {
  const state = deliveryState(delivery);
  return (
    <span className="grid justify-items-start gap-0.5">
      <Badge variant={LOOK[state].variant} data-state={state} className={LOOK[state].variant === "warning" ? WARNING_BADGE : undefined}>
        <span data-dot className="size-1.5 rounded-full bg-current" aria-hidden />
        {LOOK[state].label}
      </Badge>
      {state === "retrying" && delivery.nextAttemptAt && (
        <span className="text-xs text-muted-foreground sm:whitespace-nowrap">
          next try{" "}
          <time dateTime={delivery.nextAttemptAt} title={fullDateTime(delivery.nextAttemptAt)} className="whitespace-nowrap">
            {formatTime(delivery.nextAttemptAt)}
          </time>
        </span>
      )}
    </span>
  );
}
