import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Blockers } from "@/components/dashboard/blockers";
import { PageHeader } from "@/components/dashboard/page-header";
import { NewLink } from "@/components/payment-links/new-link";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { loadLinksPage } from "@/lib/web/dashboard/links/loaders";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";
import { linkBlockers } from "../../../../lib/web/dashboard/links/blockers";

export const metadata: Metadata = { title: "New payment link" };

export default async function NewPaymentLinkPage() {
  const { member, tokens, domains, currency, blockers } = await withAccountPage("payments", async ({ account, member }) => ({
    member,
    ...(await loadLinksPage(account.id)),
  }));
  return (
    <>
      <Link href="/dashboard/links" className={`${buttonVariants({ variant: "ghost", size: "sm" })} mb-3 -ml-2`}>
        <ArrowLeft aria-hidden /> Payment links
      </Link>
      <PageHeader title="New payment link" description="One link for many payers: each one who pays gets a checkout of their own." />
      <Blockers label="Before you can create a payment link" items={linkBlockers(blockers)} />
      <Card className="max-w-2xl">
        <CardContent className="p-5 sm:p-6">
          <NewLink
            blocked={blockers.length > 0}
            currency={currency}
            tokens={tokens.map((t) => ({
              id: t.tokenId,
              label: `${t.symbol} · ${networkLabel(t.network)}`,
              symbol: t.symbol,
              decimals: t.decimals,
            }))}
            domains={domains.map((d) => ({ id: d.domainId, label: d.domain }))}
            twoFactor={member.totpEnabledAt !== null}
          />
        </CardContent>
      </Card>
    </>
  );
}
