import type { DeliveryView } from "@/lib/domain/webhooks/deliveries";

/** What the receiver answered last: the error in the merchant's words, or the status code. */
export function DeliveryResponse({ delivery }: { delivery: Pick<DeliveryView, "lastStatusCode" | "lastError" | "attempts"> }) {
  if (delivery.lastError)
    return (
      <span className="line-clamp-2 max-w-56 text-destructive" title={delivery.lastError}>
        {delivery.lastError}
      </span>
    );
  if (delivery.lastStatusCode !== null)
    return <span className="font-mono text-xs text-muted-foreground">HTTP {delivery.lastStatusCode}</span>;
  return <span className="text-muted-foreground">{delivery.attempts === 0 ? "not sent yet" : "—"}</span>;
}
