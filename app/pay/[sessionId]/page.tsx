import type { Metadata } from "next";
import { CheckoutView } from "@/components/checkout/checkout-view";
import { networkConfig, rpcUrlsOf } from "@/lib/engine/chain/networks";
import { loadCheckout } from "@/lib/web/checkout/checkout-page";
import { explorerTxUrl } from "@/lib/web/dashboard/shared/explorer";
import { withPage } from "@/lib/web/http/page";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { numberSymbols } from "@/lib/web/i18n/locale";
import { requestLocale } from "@/lib/web/i18n/request-locale";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pay", robots: { index: false } };

/** The hosted checkout page a payer opens from checkoutUrl (or, with ?embed=1, inside checkout.js's modal). */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ sessionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ sessionId }, query] = await Promise.all([params, searchParams]);
  const view = await withPage(({ db }) => loadCheckout(db, sessionId));
  const locale = await requestLocale(query.lang);
  const local = view.network === "local" ? networkConfig("local") : undefined;
  return (
    <div lang={locale}>
      <CheckoutView
        initial={view}
        locale={locale}
        symbols={numberSymbols(locale)}
        messages={CHECKOUT_MESSAGES[locale]}
        embed={query.embed === "1"}
        localRpcUrl={local ? (rpcUrlsOf(local)[0] ?? null) : null}
        explorerTxBase={explorerTxUrl(view.network, "")}
      />
    </div>
  );
}
