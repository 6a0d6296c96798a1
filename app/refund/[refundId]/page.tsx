import type { Metadata } from "next";
import { headers } from "next/headers";
import { RefundClaim } from "@/components/payer/refund-claim";
import { CLAIM_SECRET_PARAM } from "@/lib/domain/refunds/claim-secret";
import { loadRefundClaim } from "@/lib/domain/refunds/payer-pages";
import { explorerTxUrl } from "@/lib/web/dashboard/shared/explorer";
import { clientKey } from "@/lib/web/http/client-ip";
import { withPage } from "@/lib/web/http/page";
import { numberSymbols } from "@/lib/web/i18n/locale";
import { PAYER_PAGE_MESSAGES } from "@/lib/web/i18n/refund-messages";
import { requestLocale } from "@/lib/web/i18n/request-locale";

export const dynamic = "force-dynamic";
// No referrer at all from this page: its URL carries the claim link's secret.
export const metadata: Metadata = { title: "Refund", robots: { index: false }, referrer: "no-referrer" };

/** The page a shop sends a payer to claim a refund: the payer gives the address it goes to. */
export default async function RefundPage({
  params,
  searchParams,
}: {
  params: Promise<{ refundId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ refundId }, query, requestHeaders] = await Promise.all([params, searchParams, headers()]);
  // The link's secret (?k=…): without the right one the page is not found, whatever the id.
  const secret = typeof query[CLAIM_SECRET_PARAM] === "string" ? query[CLAIM_SECRET_PARAM] : null;
  const refund = await withPage(({ db }) => loadRefundClaim(db, refundId, secret, clientKey(requestHeaders)));
  const locale = await requestLocale(query.lang);
  return (
    <div lang={locale}>
      <RefundClaim
        initial={refund}
        claimKey={secret ?? ""}
        locale={locale}
        symbols={numberSymbols(locale)}
        messages={PAYER_PAGE_MESSAGES[locale]}
        explorerTxBase={explorerTxUrl(refund.network, "")}
      />
    </div>
  );
}
