import type { Metadata } from "next";
import { RefundClaim } from "@/components/payer/refund-claim";
import { loadRefundClaim } from "@/lib/domain/refunds/payer-pages";
import { explorerTxUrl } from "@/lib/web/dashboard/payment-detail";
import { withPage } from "@/lib/web/http/page";
import { numberSymbols } from "@/lib/web/i18n/locale";
import { PAYER_PAGE_MESSAGES } from "@/lib/web/i18n/refund-messages";
import { requestLocale } from "@/lib/web/i18n/request-locale";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Refund", robots: { index: false } };

/** The page a shop sends a payer to claim a refund: the payer gives the address it goes to. */
export default async function RefundPage({
  params,
  searchParams,
}: {
  params: Promise<{ refundId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ refundId }, query] = await Promise.all([params, searchParams]);
  const refund = await withPage(({ db }) => loadRefundClaim(db, refundId));
  const locale = await requestLocale(query.lang);
  return (
    <div lang={locale}>
      <RefundClaim
        initial={refund}
        locale={locale}
        symbols={numberSymbols(locale)}
        messages={PAYER_PAGE_MESSAGES[locale]}
        explorerTxBase={explorerTxUrl(refund.network, "")}
      />
    </div>
  );
}
