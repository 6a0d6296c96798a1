import type { ReactNode } from "react";
import { Logo } from "@/components/brand/logo";
import { LanguageSwitcher } from "@/components/checkout/language-switcher";
import type { Locale } from "@/lib/i18n/locale";
import type { PayerPageMessages } from "@/lib/i18n/refund-messages";

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

/** "BNB Smart Chain (BEP-20)", or the test network's name, marked as not real money. */
export function NetworkChip({ network, messages: t }: { network: string; messages: PayerPageMessages }) {
  const test = network !== "bsc";
  return (
    <span
      data-testid="network-chip"
      className={
        test
          ? "inline-flex items-center gap-1.5 rounded-full border border-warning/40 bg-warning/10 px-2.5 py-0.5 text-xs font-medium text-warning"
          : "inline-flex items-center gap-1.5 rounded-full border bg-muted px-2.5 py-0.5 text-xs font-medium"
      }
    >
      {test ? `${network === "local" ? "Local chain" : "BSC Testnet"} · ${t.testNetwork}` : t.network}
    </span>
  );
}
