"use client";

import { Store, X } from "lucide-react";
import dynamic from "next/dynamic";
import { useEffect, useState } from "react";
import { Logo } from "@/components/brand/logo";
import { backToShopUrl } from "@/lib/web/checkout/back-to-shop";
import type { CheckoutView as View } from "@/lib/web/checkout/checkout-view";
import { percentOfBps, tokensStillOffered } from "@/lib/web/checkout/fiat-display";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill, formatDecimal, INTL_TAGS, type Locale, type NumberSymbols } from "@/lib/web/i18n/locale";
import { CancelPayment } from "./cancel-payment";
import { LanguageSwitcher } from "./language-switcher";
import { ManualPayment } from "./manual-payment";
import { MobileWallets, useMobileWithoutWallet } from "./mobile-wallets";
import { NetworkChip } from "./network-notice";
import { StatusBlock } from "./status-block";
import { SwitchingToken } from "./switching-token";
import { TokenPicker } from "./token-picker";
import { useCheckoutFeed } from "./use-checkout-feed";
import { postToOpener, useEmbedEscape, useEmbedReport, useRedirect } from "./use-embed";

// wagmi and its wallet discovery load in the browser only, on this page only.
const PayWithWallet = dynamic(() => import("./wallet/pay-with-wallet"), {
  ssr: false,
  loading: () => <div className="h-12 animate-pulse rounded-xl bg-muted" />,
});

export interface CheckoutPageProps {
  initial: View;
  locale: Locale;
  symbols: NumberSymbols;
  messages: CheckoutMessages;
  embed: boolean;
  localRpcUrl: string | null;
  explorerTxBase: string | null;
}

/** The hosted checkout: every state of a payment, live, for the payer. */
export function CheckoutView({ initial, locale, symbols, messages: t, embed, localRpcUrl, explorerTxBase }: CheckoutPageProps) {
  const [view, setView] = useState(initial);
  /** The token the payer just picked while the server switches to it: the old token's figures are hidden meanwhile. */
  const [switchingTo, setSwitchingTo] = useState<string | null>(null);
  const status = useCheckoutFeed(initial.sessionId, { ...initial, head: null });
  const now = useNow();
  const mobile = useMobileWithoutWallet();
  const amount = (value: string) => formatDecimal(value, symbols);
  const networkName = { bsc: t.networkBsc, "bsc-testnet": t.networkBscTestnet, local: t.networkLocal }[view.network] ?? view.network;
  useDocumentLanguage(locale);

  // After a partial payment the QR code and the EIP-681 link must ask for what is left: refetch them.
  useEffect(() => {
    if (status.remainingUnits === view.remainingUnits) return;
    fetch(`/api/checkout/${view.sessionId}`, { cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((body: { data: View } | null) => body && setView(body.data))
      .catch(() => undefined);
  }, [status.remainingUnits, view.remainingUnits, view.sessionId]);

  useEmbedReport(embed, view.sessionId, status.status);
  useEmbedEscape(embed, view.sessionId);
  const redirectIn = useRedirect(!embed && status.status === "completed" ? view.redirectUrl : null);
  const partial = status.status === "pending" && status.receivedAmount !== null;

  const onCancelled = (returnUrl: string | null) => {
    if (embed) {
      postToOpener({ type: "bscpay:status", sessionId: view.sessionId, status: "cancelled" });
      postToOpener({ type: "bscpay:close", sessionId: view.sessionId });
    } else if (returnUrl) window.location.assign(returnUrl);
    else window.location.reload();
  };

  return (
    // On a tall screen a short state (a receipt, a closed payment) sits in the middle, not under a blank half page.
    <div className={`flex min-h-dvh flex-col ${embed ? "bg-background" : "bg-muted/40"}`}>
      <header className="mx-auto flex w-full max-w-md items-center justify-between gap-2 px-4 pt-4">
        <Logo className="text-sm" />
        <div className="flex items-center gap-2">
          <LanguageSwitcher locale={locale} label={t.language} />
          {embed && (
            <button
              type="button"
              onClick={() => postToOpener({ type: "bscpay:close", sessionId: view.sessionId })}
              aria-label={t.close}
              className="rounded-md p-1.5 text-muted-foreground hover:bg-accent"
            >
              <X className="size-4" aria-hidden />
            </button>
          )}
        </div>
      </header>
      <main className="mx-auto w-full max-w-md px-4 pt-4 pb-10 sm:my-auto sm:pb-16">
        <section className="grid gap-5 rounded-2xl border bg-card p-5 shadow-sm sm:p-6" aria-labelledby="checkout-amount">
          <div className="grid gap-2 text-center">
            {view.shopHost && <Merchant host={view.shopHost} template={t.payingTo} />}
            {view.fiat ? (
              // Priced in money: the price first, then what it is in the token asked for now.
              <div className="grid gap-0.5">
                <h1 id="checkout-amount" data-testid="amount" className="text-4xl font-semibold tracking-tight tabular-nums select-all">
                  {amount(view.fiat.fiatAmount)} {view.fiat.currency}
                </h1>
                {switchingTo ? (
                  <p data-testid="token-amount" aria-hidden className="flex h-6 justify-center">
                    <span className="h-5 w-32 animate-pulse rounded bg-muted" />
                  </p>
                ) : (
                  <p data-testid="token-amount" className="text-base font-medium text-muted-foreground tabular-nums select-all">
                    {amount(view.amount)} {view.token}
                  </p>
                )}
                {/* The terms the payment is settled by, while it can still be paid: only a tolerance worth saying. */}
                {view.fiat.underpayBps > 0 && status.status === "pending" && (
                  <p data-testid="underpay-terms" className="text-xs text-muted-foreground">
                    {fill(t.underpayTerms, { percent: amount(percentOfBps(view.fiat.underpayBps)) })}
                  </p>
                )}
              </div>
            ) : (
              <h1 id="checkout-amount" data-testid="amount" className="text-4xl font-semibold tracking-tight tabular-nums select-all">
                {amount(view.amount)} {view.token}
              </h1>
            )}
            {view.description && (
              <p data-testid="description" className="text-sm break-words whitespace-pre-line">
                {view.description}
              </p>
            )}
            {/* Once it is over, the receipt or the closed notice names the order, beside the reference to quote. */}
            {view.orderId && status.status === "pending" && (
              <p data-testid="order-id" className="text-xs break-all text-muted-foreground">
                {fill(t.order, { orderId: view.orderId })}
              </p>
            )}
            <NetworkChip network={view.network} networkName={networkName} t={t} />
          </div>

          <StatusBlock
            status={status}
            view={view}
            t={t}
            amount={amount}
            now={now}
            intlTag={INTL_TAGS[locale]}
            explorerTxBase={explorerTxBase}
            returnUrl={embed ? null : backToShopUrl(view, status.status)}
            redirectIn={redirectIn}
          />

          {status.status === "pending" && (
            <>
              {/* The token is the payer's to choose until something arrives; then the rest is asked in the token paid. */}
              {view.fiat && !partial && (
                <TokenPicker view={{ ...view, fiat: view.fiat }} t={t} amount={amount} onChoosing={setSwitchingTo} onChosen={setView} />
              )}
              {switchingTo ? (
                <SwitchingToken token={switchingTo} t={t} />
              ) : mobile ? (
                <MobileWallets paymentUri={view.paymentUri} locale={locale} embed={embed} t={t} />
              ) : (
                <PayWithWallet
                  payment={{
                    chainId: view.chainId,
                    networkName,
                    localRpcUrl,
                    token: view.token,
                    tokenAddress: view.tokenAddress,
                    decimals: view.decimals,
                    depositAddress: view.depositAddress,
                    // Nothing received yet: the whole amount of the view's token, right after a choice as well
                    // (the live status catches up with a switched token a moment later).
                    remainingUnits: partial ? status.remainingUnits : view.remainingUnits,
                    explorerTxBase,
                    confirmationsRequired: status.confirmationsRequired,
                    head: status.head,
                  }}
                  messages={t}
                  locale={symbols}
                />
              )}
              {!switchingTo && (
                <>
                  <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
                    <span className="h-px flex-1 bg-border" />
                    {t.orPayManually}
                    <span className="h-px flex-1 bg-border" />
                  </div>
                  <ManualPayment
                    view={view}
                    offered={tokensStillOffered(view, partial)}
                    t={t}
                    amount={amount}
                    networkName={networkName}
                    intlTag={INTL_TAGS[locale]}
                    mobile={mobile}
                  />
                </>
              )}
              {!partial && <CancelPayment sessionId={view.sessionId} t={t} onCancelled={onCancelled} />}
            </>
          )}
        </section>
        <p className="mt-4 text-center text-xs text-muted-foreground">{t.poweredBy}</p>
      </main>
    </div>
  );
}

/** "Paying shop.example.com", the host in bold wherever the language puts it. */
function Merchant({ host, template }: { host: string; template: string }) {
  const [before, after = ""] = template.split("{shop}");
  return (
    <p className="inline-flex items-center justify-center gap-1.5 text-sm text-muted-foreground" data-testid="merchant">
      <Store className="size-4 shrink-0" aria-hidden />
      <span className="min-w-0 break-words">
        {before}
        <strong className="font-semibold text-foreground">{host}</strong>
        {after}
      </span>
    </p>
  );
}

/** The whole document says which language it is in (screen readers, and the :lang(zh) font stack). */
function useDocumentLanguage(locale: Locale) {
  useEffect(() => {
    const html = document.documentElement;
    const before = html.lang;
    html.lang = locale;
    return () => {
      html.lang = before;
    };
  }, [locale]);
}

/** The clock, only in the browser: the server's time is not the payer's (no hydration mismatch). */
function useNow(): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);
  return now;
}
