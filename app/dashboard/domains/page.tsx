import { Globe } from "lucide-react";
import type { Metadata } from "next";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { RoleNote } from "@/components/dashboard/role-note";
import { AddDomainForm } from "@/components/domains/add-domain-form";
import { DomainCard } from "@/components/domains/domain-card";
import { RefreshWhilePending } from "@/components/domains/refresh-while-pending";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { queryFor, selectionFor } from "@/components/webhooks/deliveries-query";
import { roleAllows } from "@/lib/accounts/members/roles";
import type { DeliveryView } from "@/lib/domain/webhooks/deliveries";
import { loadDomainsPage } from "@/lib/web/dashboard/domains/loaders";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "Domains" };

/** A delivery due within this long keeps the page refreshing (the first retry comes after 5 s). */
const DUE_SOON_MS = 30_000;

export default async function DomainsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const selection = (domainId: number) => selectionFor(domainId, params);
  const {
    member,
    role,
    domains,
    cards: loaded,
  } = await withAccountPage("read", async ({ account, member, role }) => ({
    member,
    role,
    ...(await loadDomainsPage(account.id, (domainId) => queryFor(selection(domainId)))),
  }));
  const cards = loaded.map((card) => ({ ...card, webhooks: { ...card.webhooks, selection: selection(card.domain.domainId) } }));

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
          <CardContent>{roleAllows(role, "developer") ? <AddDomainForm /> : <RoleNote role={role} permission="developer" />}</CardContent>
        </Card>
        {domains.length === 0 && (
          <EmptyState
            icon={Globe}
            title="No domains yet"
            description="Add your shop's origin: payments need a whitelisted domain, and withdrawals are sent from its wallet."
          />
        )}
        {cards.map((card) => (
          <DomainCard
            key={card.domain.domainId}
            {...card}
            twoFactor={member.totpEnabledAt !== null}
            canManage={roleAllows(role, "developer")}
          />
        ))}
      </div>
      <RefreshWhilePending dueKey={dueKey(cards.flatMap((c) => c.webhooks.deliveries?.items ?? []))} />
    </>
  );
}

/** The deliveries on screen that are about to be attempted, with their attempt counts. */
function dueKey(deliveries: DeliveryView[], now = Date.now()): string {
  return deliveries
    .filter((d) => d.status === "pending" && d.nextAttemptAt !== null && Date.parse(d.nextAttemptAt) - now < DUE_SOON_MS)
    .map((d) => `${d.deliveryId}:${d.attempts}`)
    .join(",");
}
