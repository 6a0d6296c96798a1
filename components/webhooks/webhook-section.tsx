import { Inbox, SearchX } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import type { DomainView } from "@/lib/domain/merchant-domains/manage-domains";
import type { DeliveryView } from "@/lib/domain/webhooks/deliveries";
import type { KeysetPage, WebhookSummary } from "@/lib/web/dashboard/webhooks/summaries";
import { DeliveriesFilter } from "./deliveries-filter";
import { DeliveriesPagination } from "./deliveries-pagination";
import { type DeliveriesSelection, deliveriesHref } from "./deliveries-query";
import { DeliveriesTable } from "./deliveries-table";
import { WARNING_BADGE } from "./delivery-status-badge";
import { FailedDeliveriesAlert } from "./failed-deliveries-alert";
import { SendTestEvent } from "./send-test-event";
import { WebhookSecret } from "./webhook-secret";
import { WebhooksIntro } from "./webhooks-intro";

/** The webhook block of a domain card: secret, test event, failures and the delivery log. */
export function WebhookSection({
  domain,
  summary,
  deliveries,
  selection,
  twoFactor = false,
  canManage = false,
}: {
  domain: DomainView;
  twoFactor?: boolean;
  /** The member's role holds the developer permission: may reveal or rotate the secret. */
  canManage?: boolean;
  summary: WebhookSummary;
  deliveries: KeysetPage<DeliveryView> | null;
  selection: DeliveriesSelection;
}) {
  const headingId = `webhooks-${domain.domainId}-heading`;
  return (
    <section
      id={`webhooks-${domain.domainId}`}
      aria-labelledby={headingId}
      className="grid scroll-mt-20 grid-cols-1 gap-4"
      data-testid="webhooks"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-sm font-semibold">
            Webhooks
            {summary.retrying > 0 && (
              <Badge variant="warning" className={WARNING_BADGE}>
                <span data-dot className="size-1.5 rounded-full" aria-hidden />
                {summary.retrying} retrying
              </Badge>
            )}
          </h3>
          {domain.webhookUrl && (
            <p className="text-sm text-muted-foreground">
              Signed events are POSTed to <span className="font-mono text-xs break-all text-foreground">{domain.webhookUrl}</span>
            </p>
          )}
        </div>
        {domain.webhookSecretHint && <SendTestEvent domainId={domain.domainId} />}
      </div>
      {!domain.webhookSecretHint || !deliveries ? (
        <WebhooksIntro />
      ) : (
        <>
          <FailedDeliveriesAlert domainId={domain.domainId} failed={summary.failed} showLink={selection.status !== "failed"} />
          <WebhookSecret
            domainId={domain.domainId}
            domain={domain.domain}
            hint={domain.webhookSecretHint}
            previousSecretExpiresAt={summary.previousSecretExpiresAt}
            twoFactor={twoFactor}
            canManage={canManage}
          />
          {/* grid-cols-1 (minmax 0) lets the table scroll inside the card instead of widening the page. */}
          <div className="grid grid-cols-1 gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h4 className="text-sm font-medium">Recent deliveries</h4>
              <DeliveriesFilter domainId={domain.domainId} selection={selection} failed={summary.failed} />
            </div>
            {deliveries.items.length > 0 ? (
              // Edge to edge on phones: every pixel counts for the table there.
              <div className="-mx-5 border-y sm:mx-0 sm:rounded-lg sm:border">
                <DeliveriesTable deliveries={deliveries.items} />
              </div>
            ) : (
              <NoDeliveries domainId={domain.domainId} selection={selection} />
            )}
            <DeliveriesPagination domainId={domain.domainId} selection={selection} page={deliveries} />
          </div>
        </>
      )}
    </section>
  );
}

function NoDeliveries({ domainId, selection }: { domainId: number; selection: DeliveriesSelection }) {
  const filtered = selection.status !== undefined || Boolean(selection.after || selection.before);
  const box = (icon: ReactNode, title: string, body: ReactNode) => (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-8 text-center" data-testid="no-deliveries">
      {icon}
      <p className="text-sm font-medium">{title}</p>
      <p className="max-w-sm text-sm text-muted-foreground">{body}</p>
    </div>
  );
  const iconClass = "size-5 text-muted-foreground";
  if (!filtered) {
    return box(
      <Inbox className={iconClass} aria-hidden />,
      "No deliveries yet",
      "Events appear here as payments and withdrawals change. Send a test event to check your receiver now.",
    );
  }
  return box(
    <SearchX className={iconClass} aria-hidden />,
    selection.status ? `No ${selection.status} deliveries` : "Nothing on this page",
    <Link href={deliveriesHref(domainId, {})} scroll={false} className="font-medium text-foreground underline underline-offset-4">
      Show all deliveries
    </Link>,
  );
}
