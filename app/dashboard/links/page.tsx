import { Link2, Plus } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Blockers } from "@/components/dashboard/blockers";
import { EmptyState } from "@/components/dashboard/empty-state";
import { PageHeader } from "@/components/dashboard/page-header";
import { LinksTable } from "@/components/payment-links/links-table";
import { buttonVariants } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { loadLinksPage } from "@/lib/web/dashboard/links/loaders";
import { withAccountPage } from "@/lib/web/http/page";
import { linkBlockers } from "../../../lib/web/dashboard/links/blockers";

export const metadata: Metadata = { title: "Payment links" };

export default async function PaymentLinksPage() {
  const { links, blockers } = await withAccountPage("read", ({ account }) => loadLinksPage(account.id));
  const newLink = (
    <Link href="/dashboard/links/new" className={buttonVariants({ variant: "brand" })}>
      <Plus aria-hidden /> New link
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Payment links"
        description="A page with a price and a Pay button, for selling without a shop backend: share the link, each payer gets a checkout."
        actions={links.length > 0 ? newLink : undefined}
      />
      <Blockers label="Before you can create a payment link" items={linkBlockers(blockers)} />
      {links.length === 0 ? (
        <EmptyState
          icon={Link2}
          title="No payment links yet"
          description="Create one for a product, a service or donations, then share it in a chat, an email or a social post. Payers open it, pay, and the payment shows here and under Payments."
          action={blockers.length === 0 ? newLink : undefined}
        />
      ) : (
        <Card>
          <CardContent className="p-2 sm:p-3">
            <LinksTable links={links} />
          </CardContent>
        </Card>
      )}
    </>
  );
}
