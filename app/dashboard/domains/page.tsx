import { Globe } from "lucide-react";
import type { Metadata } from "next";
import { Address } from "@/components/dashboard/address";
import { EmptyState } from "@/components/dashboard/empty-state";
import { Amount, formatDate } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { AddDomainForm } from "@/components/domains/add-domain-form";
import { DomainSettings } from "@/components/domains/domain-settings";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { currentUser } from "@/lib/auth/current-user";
import { listNetworks } from "@/lib/chain/networks";
import { getDb } from "@/lib/db";
import { bnbBalanceOf } from "@/lib/dashboard/wallet-balances";
import { walletBalances } from "@/lib/dashboard/overview";
import { listDomains } from "@/lib/domains/manage-domains";
import { qrCodeDataUri } from "@/lib/payments/eip681";

export const metadata: Metadata = { title: "Domains" };

export default async function DomainsPage() {
  const user = (await currentUser())!;
  const db = await getDb();
  const [domains, balances] = await Promise.all([listDomains(db, user.id), walletBalances(db, user.id)]);
  const networks = listNetworks().map((n) => n.name);
  const bnb = await Promise.all(domains.map(async (d) => Promise.all(networks.map(async (n) => ({ network: n, balance: (await bnbBalanceOf(n, d.withdrawalAddress!))?.formatted ?? null })))));

  return (
    <>
      <PageHeader title="Domains" description="Whitelisted shop origins. Each has a withdrawal wallet that receives payments unless you set a payout address." />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Add a domain</CardTitle>
          </CardHeader>
          <CardContent>
            <AddDomainForm />
          </CardContent>
        </Card>
        {domains.length === 0 && <EmptyState icon={Globe} title="No domains yet" description="Add your shop's origin: payments need a whitelisted domain, and withdrawals are sent from its wallet." />}
        {domains.map((d, i) => (
          <Card key={d.domainId} data-domain={d.domain}>
            <CardHeader>
              <CardTitle className="break-all">{d.domain}</CardTitle>
              <CardDescription>
                domainId {d.domainId} · added {formatDate(d.createdAt)}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid gap-6 md:grid-cols-[1fr_16rem]">
              <DomainSettings domainId={d.domainId} domain={d.domain} payoutAddress={d.payoutAddress} webhookUrl={d.webhookUrl} />
              <section aria-label={`Withdrawal wallet of ${d.domain}`} className="grid content-start gap-3 rounded-lg border bg-muted/30 p-4">
                <p className="text-sm font-medium">Withdrawal wallet</p>
                {/* eslint-disable-next-line @next/next/no-img-element -- a data URI */}
                <img src={qrCodeDataUri(`ethereum:${d.withdrawalAddress}`)} alt={`QR code of the withdrawal wallet ${d.withdrawalAddress}`} width={148} height={148} className="rounded-md bg-white p-1" />
                <Address value={d.withdrawalAddress!} />
                <ul className="grid gap-1 text-sm">
                  {bnb[i]!.map((b) => (
                    <li key={b.network} className="flex justify-between gap-2">
                      <span className="text-muted-foreground">BNB ({b.network})</span>
                      {b.balance === null ? <span className="text-muted-foreground">unavailable</span> : <Amount value={b.balance} symbol="BNB" />}
                    </li>
                  ))}
                  {balances.find((w) => w.domainId === d.domainId)?.balances.map((b) => (
                    <li key={b.tokenId} className="flex justify-between gap-2">
                      <span className="text-muted-foreground">{b.symbol}</span>
                      {b.balance === null ? <span className="text-muted-foreground">unavailable</span> : <Amount value={b.balance} symbol={b.symbol} />}
                    </li>
                  ))}
                </ul>
              </section>
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  );
}
