import { ArrowRight, Globe, Inbox } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { Badge } from "@/components/ui/badge";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { deliveriesHref } from "@/components/webhooks/deliveries-query";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { WARNING_BADGE } from "@/components/webhooks/delivery-status-badge";
import { FailedDeliveriesAlert } from "@/components/webhooks/failed-deliveries-alert";
import { loadWebhooksPage } from "@/lib/web/dashboard/webhooks/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Webhooks" };

/** Every domain's webhook endpoint and its latest deliveries, in one place; each is managed on its domain's card. */
export default async function WebhooksPage() {
  const endpoints = await withAccountPage("read", ({ account }) => loadWebhooksPage(account.id));
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed POSTs to your shop's server when a payment or a withdrawal changes. Each domain has its own URL and secret."
        actions={
          <Link href="/docs" className={buttonVariants({ variant: "outline" })}>
            Webhook docs
          </Link>
        }
      />
      {endpoints.length === 0 ? (
        <EmptyState
          icon={Globe}
          title="No domains yet"
          description="Webhooks are set per domain: add your shop's domain first, then give it a webhook URL."
          action={
            <Link href="/dashboard/domains" className={buttonVariants({ variant: "outline", size: "sm" })}>
              Add a domain
            </Link>
          }
        />
      ) : (
        <div className="grid grid-cols-1 gap-6">
          {endpoints.map(({ domain, summary, deliveries }) => (
            <Card key={domain.domainId} data-webhooks-domain={domain.domain}>
              <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
                <div className="grid min-w-0 gap-1">
                  <CardTitle className="flex flex-wrap items-center gap-2 break-all">
                    {domain.domain}
                    {summary.retrying > 0 && (
                      <Badge variant="warning" className={WARNING_BADGE}>
                        <span data-dot className="size-1.5 rounded-full" aria-hidden />
                        {summary.retrying} retrying
                      </Badge>
                    )}
                  </CardTitle>
                  <CardDescription>
                    {domain.webhookUrl ? (
                      <>
                        Sent to <span className="font-mono text-xs break-all text-foreground">{domain.webhookUrl}</span>
                      </>
                    ) : (
                      "No webhook URL: this domain's events are not sent anywhere."
                    )}
                  </CardDescription>
                </div>
                <Link
                  href={deliveriesHref(domain.domainId, {})}
                  className={buttonVariants({ variant: "outline", size: "sm" })}
                  aria-label={`${domain.webhookUrl ? "Manage" : "Set up"} webhooks of ${domain.domain}`}
                >
                  {domain.webhookUrl ? "Manage" : "Set up"} <ArrowRight aria-hidden />
                </Link>
              </CardHeader>
              {deliveries && (
                <CardContent className="grid grid-cols-1 gap-3">
                  <FailedDeliveriesAlert domainId={domain.domainId} failed={summary.failed} showLink />
                  {deliveries.items.length > 0 ? (
                    <>
                      <h3 className="text-sm font-medium">Recent deliveries</h3>
                      <div className="-mx-5 border-y sm:mx-0 sm:rounded-lg sm:border">
                        <DeliveriesTable deliveries={deliveries.items} />
                      </div>
                      {deliveries.older && (
                        <Link
                          href={deliveriesHref(domain.domainId, { after: deliveries.older })}
                          className="text-sm font-medium underline underline-offset-4"
                        >
                          Older deliveries
                        </Link>
                      )}
                    </>
                  ) : (
                    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed px-4 py-6 text-center">
                      <Inbox className="size-5 text-muted-foreground" aria-hidden />
                      <p className="text-sm font-medium">No deliveries yet</p>
                      <p className="max-w-sm text-sm text-muted-foreground">
                        Events appear here as payments and withdrawals change. Send a test event from the domain&apos;s card to check your
                        receiver.
                      </p>
                    </div>
                  )}
                </CardContent>
              )}
            </Card>
          ))}
        </div>
      )}
    </>
  );
}
