import { SearchX } from "lucide-react";
import { Logo } from "@/components/brand/logo";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { requestLocale } from "@/lib/web/i18n/request-locale";

/** A payment link that leads nowhere: the checkout's own style and language. */
export default async function CheckoutNotFound() {
  const locale = await requestLocale();
  const t = CHECKOUT_MESSAGES[locale];
  return (
    <div lang={locale} className="min-h-dvh bg-muted/40">
      <header className="mx-auto flex w-full max-w-md px-4 pt-4">
        <Logo className="text-sm" />
      </header>
      <main className="mx-auto w-full max-w-md px-4 pt-4 pb-10">
        <section className="grid justify-items-center gap-3 rounded-2xl border bg-card p-6 text-center shadow-sm">
          <SearchX className="size-8 text-muted-foreground" aria-hidden />
          <h1 className="text-xl font-semibold">{t.notFoundTitle}</h1>
          <p className="text-sm text-muted-foreground">{t.notFoundText}</p>
        </section>
      </main>
    </div>
  );
}
