"use client";

import { Clock, Loader2, XCircle } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { ErrorDetail } from "@/lib/base/errors";
import type { PaymentLinkPage } from "@/lib/domain/payment-links/pay-link";
import { fill, formatDecimal, type Locale, type NumberSymbols } from "@/lib/web/i18n/locale";
import { linkRefusalMessage, type PayerPageMessages } from "@/lib/web/i18n/refund-messages";
import { PayerFrame, PayerNetworkChip } from "./payer-frame";

interface Props {
  link: PaymentLinkPage;
  locale: Locale;
  symbols: NumberSymbols;
  messages: PayerPageMessages;
}

/** A random id kept per browser: Pay again from this browser returns its open session, not another payer's behind the same address. */
function browserId(): string | undefined {
  try {
    let id = window.localStorage.getItem("bsc-pay.browser");
    if (!id) {
      id = crypto.randomUUID().replaceAll("-", "");
      window.localStorage.setItem("bsc-pay.browser", id);
    }
    return id;
  } catch {
    return undefined; // storage blocked: the address alone identifies the client
  }
}

/** A payment link's page: its title and price (or the payer's amount), and Pay → a fresh session on the hosted checkout. */
export function PaymentLinkView({ link, locale, symbols, messages: t }: Props) {
  const [amount, setAmount] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [busy, setBusy] = useState(false);
  const open = link.amount === null;

  const pay = async () => {
    setPaying(true);
    setProblem(null);
    setBusy(false);
    try {
      const response = await fetch(`/api/links/${link.slug}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...(open ? { amount: amount.trim().replace(",", ".") } : {}), browser: browserId() }),
      });
      const body = (await response.json()) as {
        success: boolean;
        data?: { checkoutUrl: string };
        error?: { reason?: string; details?: ErrorDetail[] };
      };
      if (body.success && body.data) {
        const checkout = new URL(body.data.checkoutUrl, window.location.origin);
        checkout.searchParams.set("lang", locale);
        window.location.assign(`${checkout.pathname}${checkout.search}`);
        return;
      }
      // 429: the link has its cap of open payments (or this device pressed Pay too often) — a wait, not a mistake.
      if (response.status === 429) setBusy(true);
      // The server's words are for the merchant and the log: the payer reads the reason in their language.
      else setProblem(linkRefusalMessage(body.error, t));
    } catch {
      setProblem(t.linkInactiveBody);
    }
    setPaying(false);
  };

  return (
    <PayerFrame locale={locale} messages={t} labelledBy="link-title">
      <div className="grid justify-items-center gap-2 text-center">
        {link.merchant ? <p className="text-sm text-muted-foreground">{fill(t.paying, { merchant: link.merchant })}</p> : null}
        <h1 id="link-title" className="text-xl font-semibold text-balance">
          {link.title}
        </h1>
        {link.description ? <p className="text-sm whitespace-pre-line text-muted-foreground">{link.description}</p> : null}
        {link.amount !== null ? (
          <p data-testid="link-amount" className="text-4xl font-semibold tracking-tight tabular-nums">
            {formatDecimal(link.amount, symbols)} <span className="text-2xl">{link.currency ?? link.token}</span>
          </p>
        ) : null}
        <PayerNetworkChip network={link.network} locale={locale} />
      </div>

      {!link.active ? (
        <div role="status" className="grid gap-2 rounded-xl border p-4 text-center">
          <XCircle className="mx-auto size-8 text-muted-foreground" aria-hidden />
          <p className="font-semibold">{t.linkInactiveTitle}</p>
          <p className="text-sm text-muted-foreground">{t.linkInactiveBody}</p>
        </div>
      ) : (
        <form
          className="grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            void pay();
          }}
        >
          {open ? (
            <div className="grid gap-1.5">
              <label htmlFor="link-amount" className="text-sm font-medium">
                {fill(t.linkAmount, { token: link.token })}
              </label>
              <Input
                id="link-amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                aria-describedby="link-minimum"
                aria-invalid={problem !== null}
                className="text-lg tabular-nums"
              />
              {link.minAmount ? (
                <p id="link-minimum" className="text-xs text-muted-foreground">
                  {fill(t.linkMinimum, { amount: formatDecimal(link.minAmount, symbols), token: link.token })}
                </p>
              ) : null}
            </div>
          ) : null}
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          {busy ? (
            <div role="alert" data-testid="link-busy" className="grid gap-1 rounded-xl border p-4 text-center">
              <Clock className="mx-auto size-6 text-muted-foreground" aria-hidden />
              <p className="font-semibold">{t.linkBusyTitle}</p>
              <p className="text-sm text-muted-foreground">{t.linkBusyBody}</p>
            </div>
          ) : null}
          <Button type="submit" variant="brand" size="lg" disabled={paying || (open && amount.trim() === "")}>
            {paying ? <Loader2 className="animate-spin" aria-hidden /> : null}
            {paying ? t.linkPaying : t.linkPay}
          </Button>
        </form>
      )}
    </PayerFrame>
  );
}
