import { formatDate } from "@/components/dashboard/format";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { DeliveriesSelection } from "@/components/webhooks/deliveries-query";
import { WebhookSection } from "@/components/webhooks/webhook-section";
import type { DomainView } from "@/lib/domain/merchant-domains/manage-domains";
import type { DeliveryView } from "@/lib/domain/webhooks/deliveries";
import type { KeysetPage, WebhookSummary } from "@/lib/web/dashboard/webhooks/summaries";
import { DomainSettings } from "./domain-settings";
import { FiatThresholds } from "./fiat-thresholds";
import { PendingPayoutChange } from "./pending-payout-change";
import { type WalletBalance, WithdrawalWallet } from "./withdrawal-wallet";

/** One whitelisted origin: its settings and wallet side by side, its webhooks below. */
export function DomainCard({
  domain: d,
  balances,
  webhooks,
  twoFactor = false,
  canManage = false,
}: {
  domain: DomainView;
  /** The account has two-factor on: changes ask for a code. */
  twoFactor?: boolean;
  /** The member's role holds the developer permission (the webhook secret's Reveal and Rotate). */
  canManage?: boolean;
  balances: WalletBalance[];
  webhooks: { summary: WebhookSummary; deliveries: KeysetPage<DeliveryView> | null; selection: DeliveriesSelection };
}) {
  const { failed } = webhooks.summary;
  return (
    <Card data-domain={d.domain} data-domain-id={d.domainId}>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle className="break-all">{d.domain}</CardTitle>
          {/* Visible without scrolling to the log: failures must never go unnoticed. */}
          {failed > 0 && (
            <Badge variant="danger" data-testid="failed-count">
              {failed} failed {failed === 1 ? "webhook" : "webhooks"}
            </Badge>
          )}
        </div>
        <CardDescription>Added {formatDate(d.createdAt)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-[1fr_16rem]">
        <div className="grid content-start gap-4">
          {d.payoutChangeEffectiveAt && (
            <PendingPayoutChange domainId={d.domainId} address={d.pendingPayoutAddress} effectiveAt={d.payoutChangeEffectiveAt} />
          )}
          {/* Keyed by the saved values: a change made elsewhere (API, another tab) resets the form to it. */}
          <DomainSettings
            key={`${d.payoutAddress}|${d.webhookUrl}|${d.payoutChangeEffectiveAt}`}
            domainId={d.domainId}
            domain={d.domain}
            payoutAddress={d.payoutAddress}
            webhookUrl={d.webhookUrl}
            twoFactor={twoFactor}
          />
          <div className="border-t pt-4">
            <FiatThresholds
              key={`${d.fiatUnderpayBps}|${d.fiatRateToleranceBps}`}
              domainId={d.domainId}
              underpayBps={d.fiatUnderpayBps}
              rateToleranceBps={d.fiatRateToleranceBps}
              underpayInForce={d.fiatUnderpayBpsInForce}
              rateToleranceInForce={d.fiatRateToleranceBpsInForce}
            />
          </div>
        </div>
        {/* biome-ignore lint/style/noNonNullAssertion: addDomain sets the wallet in the transaction that inserts the row */}
        <WithdrawalWallet domain={d.domain} address={d.withdrawalAddress!} balances={balances} />
      </CardContent>
      <CardContent className="border-t pt-5">
        <WebhookSection domain={d} twoFactor={twoFactor} canManage={canManage} {...webhooks} />
      </CardContent>
    </Card>
  );
}
