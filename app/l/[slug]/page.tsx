import type { Metadata } from "next";
import { PaymentLinkView } from "@/components/payer/payment-link-view";
import { loadPaymentLinkPage } from "@/lib/domain/refunds/payer-pages";
import { withPage } from "@/lib/web/http/page";
import { numberSymbols } from "@/lib/web/i18n/locale";
import { PAYER_PAGE_MESSAGES } from "@/lib/web/i18n/refund-messages";
import { requestLocale } from "@/lib/web/i18n/request-locale";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pay", robots: { index: false } };

/** A merchant's payment link: the title and amount, and "Pay", which starts a session and opens the hosted checkout. */
export default async function PaymentLinkPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ slug }, query] = await Promise.all([params, searchParams]);
  const link = await withPage(({ db }) => loadPaymentLinkPage(db, slug));
  const locale = await requestLocale(query.lang);
  return (
    <div lang={locale}>
      <PaymentLinkView link={link} locale={locale} symbols={numberSymbols(locale)} messages={PAYER_PAGE_MESSAGES[locale]} />
    </div>
  );
}
