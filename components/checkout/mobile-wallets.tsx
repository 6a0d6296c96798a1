"use client";

import { ExternalLink, Smartphone } from "lucide-react";
import { useEffect, useState } from "react";
import { metamaskLink, trustWalletLink, walletCheckoutUrl } from "@/lib/web/checkout/wallet-links";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import type { Locale } from "@/lib/web/i18n/locale";

/**
 * Whether this is a phone (or tablet) without a wallet in its browser: a touch screen as the
 * main pointer and no injected provider. Decided after mount — the server cannot know, and the
 * first render must match it — so it is `false` until then and the desktop layout shows first.
 */
export function useMobileWithoutWallet(): boolean {
  const [mobile, setMobile] = useState(false);
  useEffect(() => {
    setMobile(window.matchMedia("(pointer: coarse)").matches && !("ethereum" in window));
  }, []);
  return mobile;
}

/**
 * Opens this very checkout in a mobile wallet's browser (where paying with the wallet works), or
 * hands the EIP-681 link to any wallet. Inside checkout.js's iframe the wallet links open a new
 * tab: loaded in the iframe they would fail, and replacing the shop's page would lose the
 * modal that tells the shop when the payment completes.
 */
export function MobileWallets({
  paymentUri,
  locale,
  embed,
  t,
}: {
  paymentUri: string;
  locale: Locale;
  embed: boolean;
  t: CheckoutMessages;
}) {
  const [page, setPage] = useState<string | null>(null);
  useEffect(() => setPage(walletCheckoutUrl(window.location.href, locale)), [locale]);
  if (page === null) return null;
  const target = embed ? { target: "_blank", rel: "noopener" } : {};
  const primary =
    "flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand px-4 text-base font-semibold text-brand-foreground shadow-sm transition-colors hover:bg-brand/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring";
  return (
    <div className="grid gap-2" data-testid="mobile-wallets">
      <p className="text-center text-sm text-muted-foreground">
        <Smartphone className="me-1 inline size-4 align-[-3px]" aria-hidden />
        {t.mobileIntro}
      </p>
      <a href={metamaskLink(page)} className={primary} {...target}>
        {t.openInMetaMask}
      </a>
      <a href={trustWalletLink(page)} className={primary} {...target}>
        {t.openInTrustWallet}
      </a>
      <a
        href={paymentUri}
        className="flex h-12 w-full items-center justify-center gap-2 rounded-xl border bg-background px-4 text-base font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        data-testid="other-wallet"
      >
        {t.otherWallet} <ExternalLink className="size-4" aria-hidden />
      </a>
    </div>
  );
}
