import { ArrowLeft } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Blockers } from "@/components/dashboard/blockers";
import { PageHeader } from "@/components/dashboard/page-header";
import { CreatePaymentForm } from "@/components/payments/create-payment-form";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { loadCreatePaymentPage } from "@/lib/web/dashboard/payments/loaders";
import { networkLabel } from "@/lib/web/dashboard/shared/wording";
import { withAccountPage } from "@/lib/web/http/page";

export const metadata: Metadata = { title: "New payment" };

/** What stops a payment from being created, with the page that fixes it. */
const BLOCKERS = {
  plan: {
    text: "Choose a plan first: it sets how many payments you can create each month.",
    href: "/dashboard/plan",
    link: "Choose a plan",
  },
  quota: { text: "This month's payments on your plan are used up.", href: "/dashboard/plan", link: "Upgrade your plan" },
  token: { text: "Register a token first: it is what your customer pays with.", href: "/dashboard/tokens", link: "Register a token" },
  domain: { text: "Add your shop's domain first: its wallet receives the payment.", href: "/dashboard/domains", link: "Add a domain" },
} as const;

export default async function NewPaymentPage() {
  const { tokens, domains, currency, blockers } = await withAccountPage("payments", ({ account }) => loadCreatePaymentPage(account.id));
  return (
    <>
      <Link href="/dashboard/payments" className={`${buttonVariants({ variant: "ghost", size: "sm" })} mb-3 -ml-2`}>
        <ArrowLeft aria-hidden /> Payments
      </Link>
      <PageHeader
        title="New payment"
        description="A one-off payment, e.g. for an invoice: you get a checkout link to send to your customer."
      />
      <Blockers label="Before you can create a payment" items={blockers.map((b) => ({ key: b, ...BLOCKERS[b] }))} />
      <Card className="max-w-2xl">
        <CardContent className="p-5 sm:p-6">
          <CreatePaymentForm
            blocked={blockers.length > 0}
            currency={currency}
            tokens={tokens.map((t) => ({
              id: t.tokenId,
              label: `${t.symbol} · ${networkLabel(t.network)}`,
              symbol: t.symbol,
              decimals: t.decimals,
            }))}
            domains={domains.map((d) => ({ id: d.domainId, label: d.domain }))}
          />
        </CardContent>
      </Card>
    </>
  );
}
