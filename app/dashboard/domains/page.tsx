import { Globe } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { AddDomainForm } from "@/components/domains/add-domain-form";
import { queryFor, selectionFor } from "@/components/domains/deliveries-query";
import { DomainCard } from "@/components/domains/domain-card";
import { RefreshWhilePending } from "@/components/domains/refresh-while-pending";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { requireUser } from "@/lib/auth/current-user";
import { listNetworks } from "@/lib/chain/networks";
import { walletBalances } from "@/lib/dashboard/overview";
import { bnbBalanceOf } from "@/lib/dashboard/wallet-balances";
import { deliveriesOfDomain, EMPTY_SUMMARY, webhookSummaries } from "@/lib/dashboard/webhooks";
import { getDb } from "@/lib/db";
import { listDomains } from "@/lib/domains/manage-domains";
import type { DeliveryView } from "@/lib/webhooks/deliveries";

export const metadata: Metadata = { title: "Domains" };

/** A delivery due within this long keeps the page refreshing (the first retry comes after 5 s). */
const DUE_SOON_MS = 30_000;

export default async function DomainsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const db = await getDb();
  const params = await searchParams;
  const [domains, tokenBalances, summaries] = await Promise.all([
    listDomains(db, user.id),
    walletBalances(db, user.id),
    webhookSummaries(db, user.id),
  ]);
  const networks = listNetworks().map((n) => n.name);
  const cards = await Promise.all(
    domains.map(async (d) => {
      const selection = selectionFor(d.domainId, params);
      const [bnb, deliveries] = await Promise.all([
        Promise.all(
          networks.map(async (n) => ({
            key: `bnb-${n}`,
            label: `BNB (${n})`,
            symbol: "BNB",
            balance: (await bnbBalanceOf(n, d.withdrawalAddress!))?.formatted ?? null,
          })),
        ),
        d.webhookSecret ? deliveriesOfDomain(db, user.id, d.domainId, queryFor(selection)) : null,
      ]);
      const tokens = (tokenBalances.find((w) => w.domainId === d.domainId)?.balances ?? []).map((b) => ({
        key: `token-${b.tokenId}`,
        label: b.symbol,
        symbol: b.symbol,
        balance: b.balance,
      }));
      return {
        domain: d,
        balances: [...bnb, ...tokens],
        webhooks: { summary: summaries.get(d.domainId) ?? EMPTY_SUMMARY, deliveries, selection },
      };
    }),
  );

  return (
    <>
      <PageHeader
        title="Domains"
        description="Whitelisted shop origins. Each has a withdrawal wallet that receives payments unless you set a payout address."
      />
      <div className="grid grid-cols-1 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Add a domain</CardTitle>
          </CardHeader>
          <CardContent>
            <AddDomainForm />
          </CardContent>
        </Card>
        {domains.length === 0 && (
          <EmptyState
            icon={Globe}
            title="No domains yet"
            description="Add your shop's origin: payments need a whitelisted domain, and withdrawals are sent from its wallet."
          />
        )}
        {cards.map((card) => (
          <DomainCard key={card.domain.domainId} {...card} />
        ))}
      </div>
      <RefreshWhilePending dueKey={dueKey(cards.flatMap((c) => c.webhooks.deliveries?.items ?? []))} />
    </>
  );
}

/** The deliveries on screen that are about to be attempted, with their attempt counts. */
function dueKey(deliveries: DeliveryView[], now = Date.now()): string {
  return deliveries
    .filter((d) => d.status === "pending" && Date.parse(d.nextAttemptAt!) - now < DUE_SOON_MS)
    .map((d) => `${d.deliveryId}:${d.attempts}`)
    .join(",");
}
