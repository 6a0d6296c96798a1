import type { ReactNode } from "react";
import { Logo } from "@/components/brand/logo";
import { LanguageSwitcher } from "@/components/checkout/language-switcher";
import { NetworkChip } from "@/components/checkout/network-notice";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import type { Locale } from "@/lib/web/i18n/locale";
import type { PayerPageMessages } from "@/lib/web/i18n/refund-messages";

/** The frame of the payer's pages besides the checkout (refund claim, payment link): the checkout's look. */
export function PayerFrame({
  locale,
  messages: t,
  labelledBy,
  children,
}: {
  locale: Locale;
  messages: PayerPageMessages;
  labelledBy: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-dvh bg-muted/40">
      <header className="mx-auto flex w-full max-w-md items-center justify-between gap-2 px-4 pt-4">
        <Logo className="text-sm" />
        <LanguageSwitcher locale={locale} label={t.language} />
      </header>
      <main className="mx-auto w-full max-w-md px-4 pt-4 pb-10">
        <section className="grid gap-5 rounded-2xl border bg-card p-5 shadow-sm sm:p-6" aria-labelledby={labelledBy}>
          {children}
        </section>
      </main>
    </div>
  );
}

/** The checkout's network chip: "BNB Smart Chain (BEP-20)", and on a test chain a second chip saying it is no real money. */
export function PayerNetworkChip({ network, locale }: { network: string; locale: Locale }) {
  const t = CHECKOUT_MESSAGES[locale];
  const networkName = { bsc: t.networkBsc, "bsc-testnet": t.networkBscTestnet, local: t.networkLocal }[network] ?? network;
  return <NetworkChip network={network} networkName={networkName} t={t} />;
}
