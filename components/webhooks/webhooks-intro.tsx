import { Webhook } from "lucide-react";

/** Shown instead of the webhook tools while the domain has no webhook URL. */
export function WebhooksIntro() {
  return (
    <div className="flex gap-3 rounded-lg border border-dashed p-4">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-muted">
        <Webhook className="size-4 text-muted-foreground" aria-hidden />
      </span>
      <div className="grid gap-1 text-sm">
        <p className="font-medium">No webhook URL yet</p>
        <p className="text-muted-foreground">
          Webhooks tell your shop the moment a payment completes, expires or arrives late, and when a withdrawal settles: a signed POST to
          your server. Save a webhook URL above to get this domain&apos;s signing secret, a test button and the log of every delivery.
        </p>
      </div>
    </div>
  );
}
