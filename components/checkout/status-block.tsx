"use client";

import { ArrowLeft, CheckCircle2, CircleAlert, Clock, ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import type { CheckoutView } from "@/lib/web/checkout/checkout-view";
import { fiatShare } from "@/lib/web/checkout/fiat-display";
import { formatTimeLeft, fractionLeft, timeTone } from "@/lib/web/checkout/time-left";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";
import { fill } from "@/lib/web/i18n/locale";
import type { LiveStatus } from "./use-checkout-feed";

export interface StatusProps {
  status: LiveStatus;
  view: CheckoutView;
  t: CheckoutMessages;
  amount: (value: string) => string;
  /** The browser's clock; null during the server render and hydration (times are the payer's local ones). */
  now: number | null;
  intlTag: string;
  explorerTxBase: string | null;
  /** "Back to the shop": null inside the embed, where the modal is closed instead. */
  returnUrl: string | null;
  redirectIn: number | null;
}

const TONE_TEXT = { normal: "text-foreground", warning: "text-warning", danger: "text-destructive" } as const;
const TONE_BAR = { normal: "bg-primary", warning: "bg-warning", danger: "bg-destructive" } as const;

/** What the payment is at: the countdown while pending, a receipt when paid, a warning when closed. */
export function StatusBlock(props: StatusProps) {
  const { status } = props;
  if (status.status === "completed") return <Receipt {...props} />;
  if (status.status === "expired" || status.status === "cancelled") return <Closed {...props} />;
  return <Pending {...props} />;
}

function Pending({ status, view, t, amount, now, intlTag }: StatusProps) {
  const partial = status.receivedAmount !== null;
  const secondsLeft = now === null ? null : Math.max(0, Math.floor((Date.parse(status.expiresAt) - now) / 1000));
  const tone = secondsLeft === null ? "normal" : timeTone(secondsLeft);
  const fraction = now === null ? 1 : fractionLeft(view.createdAt, status.expiresAt, now);
  return (
    <div className="grid gap-2 text-center">
      <div role="status">
        {partial && status.receivedAmount ? (
          <p className="rounded-lg bg-warning/10 px-3 py-2 text-sm font-medium text-foreground" data-testid="partial">
            {fill(t.partial, {
              received: amount(status.receivedAmount),
              amount: amount(view.amount),
              token: view.token,
              remaining: amount(status.remainingAmount),
            })}
            {/* Priced in money: what is left of the price, in that money (the share of the token amount still owed). */}
            {view.fiat && (
              <span className="mt-0.5 block text-xs font-normal" data-testid="partial-fiat">
                {fill(t.partialFiat, {
                  remaining: amount(fiatShare(view.fiat.fiatAmount, status.remainingUnits, view.amountUnits)),
                  price: amount(view.fiat.fiatAmount),
                  currency: view.fiat.currency,
                })}
              </span>
            )}
          </p>
        ) : (
          <p className="text-sm font-medium">{t.waiting}</p>
        )}
      </div>
      <p
        className={`inline-flex items-center justify-center gap-1.5 text-xl font-semibold tabular-nums ${TONE_TEXT[tone]}`}
        data-testid="time-left"
        data-tone={tone}
      >
        <Clock className="size-5" aria-hidden />
        {secondsLeft === null ? "\u00a0" : fill(t.timeLeft, { time: formatTimeLeft(secondsLeft) })}
      </p>
      <div className="mx-auto h-1.5 w-full max-w-64 overflow-hidden rounded-full bg-muted" aria-hidden>
        <div className={`h-full rounded-full transition-[width] ${TONE_BAR[tone]}`} style={{ width: `${(fraction * 100).toFixed(2)}%` }} />
      </div>
      <p className="text-xs text-muted-foreground" data-testid="expires-at">
        {now === null ? "\u00a0" : fill(t.expiresAt, { time: localTime(status.expiresAt, intlTag, now) })}
      </p>
    </div>
  );
}

function Receipt({ status, view, t, amount, now, intlTag, explorerTxBase, returnUrl, redirectIn }: StatusProps) {
  const token = view.token;
  const txUrl = status.txHash && explorerTxBase ? `${explorerTxBase}${status.txHash}` : null;
  return (
    <div role="status" className="grid gap-4" data-testid="receipt">
      <div className="grid justify-items-center gap-1 rounded-xl border border-success/30 bg-success/10 px-4 py-5 text-center">
        <CheckCircle2 className="size-9 text-success" aria-hidden />
        <h2 className="text-lg font-semibold">{t.completedTitle}</h2>
        <p className="text-sm">{fill(t.completedText, { amount: amount(status.receivedAmount ?? "0"), token })}</p>
      </div>
      {status.overpaid && status.overpaidAmount && (
        <p className="text-sm text-muted-foreground">{fill(t.overpaid, { extra: amount(status.overpaidAmount), token })}</p>
      )}
      {status.lateAmount && <p className="text-sm text-muted-foreground">{fill(t.late, { amount: amount(status.lateAmount), token })}</p>}
      <Details view={view} t={t}>
        {view.fiat && (
          <Row label={t.priceLabel}>
            <span className="tabular-nums" data-testid="receipt-price">
              {amount(view.fiat.fiatAmount)} {view.fiat.currency}
            </span>
          </Row>
        )}
        <Row label={t.amountPaid}>
          <span className="font-semibold tabular-nums">
            {amount(status.receivedAmount ?? "0")} {token}
          </span>
        </Row>
        <Row label={t.paidAt}>
          <span data-testid="paid-at">{now === null || !status.completedAt ? "\u00a0" : localTime(status.completedAt, intlTag, null)}</span>
        </Row>
        {view.orderId && <OrderRow orderId={view.orderId} t={t} />}
        {status.txHash && (
          <Row label={t.transaction}>
            {txUrl ? (
              <a
                href={txUrl}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1 font-medium underline underline-offset-4"
              >
                {t.viewTransaction} <ExternalLink className="size-3.5" aria-hidden />
              </a>
            ) : (
              <span className="font-mono text-xs" title={status.txHash} data-testid="tx-hash">
                {status.txHash.slice(0, 10)}…{status.txHash.slice(-8)}
              </span>
            )}
          </Row>
        )}
      </Details>
      {returnUrl && (
        <div className="grid justify-items-center gap-1">
          <BackToShop href={returnUrl} label={t.backToShop} primary />
          {redirectIn !== null && <p className="text-xs text-muted-foreground">{fill(t.redirecting, { seconds: redirectIn })}</p>}
        </div>
      )}
    </div>
  );
}

function Closed({ status, view, t, amount, returnUrl }: StatusProps) {
  return (
    <div role="status" className="grid gap-4" data-testid="closed">
      <div className="grid justify-items-center gap-1 rounded-xl border border-destructive/30 bg-destructive/10 px-4 py-5 text-center">
        <CircleAlert className="size-8 text-destructive" aria-hidden />
        <h2 className="text-lg font-semibold">{status.status === "expired" ? t.expiredTitle : t.cancelledTitle}</h2>
        <p className="text-sm">{status.status === "expired" ? t.expiredText : t.cancelledText}</p>
      </div>
      {status.lateAmount && (
        <p className="text-sm text-muted-foreground">{fill(t.late, { amount: amount(status.lateAmount), token: view.token })}</p>
      )}
      <Details view={view} t={t}>
        {view.orderId && <OrderRow orderId={view.orderId} t={t} />}
      </Details>
      {returnUrl && (
        <div className="flex justify-center">
          <BackToShop href={returnUrl} label={t.backToShop} />
        </div>
      )}
    </div>
  );
}

/** What the payer quotes to the shop: the rows given, then the session id as the reference, whole. */
function Details({ view, t, children }: { view: CheckoutView; t: CheckoutMessages; children?: ReactNode }) {
  return (
    <dl className="grid gap-2.5 rounded-xl border p-3 text-sm sm:p-4">
      {children}
      <div className={children ? "grid gap-0.5 border-t pt-2.5" : "grid gap-0.5"}>
        <dt className="text-muted-foreground">{t.reference}</dt>
        <dd className="font-mono text-xs break-all select-all">{view.sessionId}</dd>
      </div>
    </dl>
  );
}

function OrderRow({ orderId, t }: { orderId: string; t: CheckoutMessages }) {
  return (
    <Row label={t.orderLabel}>
      <span className="font-mono break-all">{orderId}</span>
    </Row>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[minmax(5rem,auto)_1fr] items-baseline gap-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right">{children}</dd>
    </div>
  );
}

function BackToShop({ href, label, primary = false }: { href: string; label: string; primary?: boolean }) {
  return (
    <a
      href={href}
      className={
        primary
          ? "inline-flex h-11 items-center justify-center gap-2 rounded-xl bg-primary px-5 text-sm font-semibold text-primary-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
          : "inline-flex items-center gap-1.5 text-sm font-medium underline underline-offset-4"
      }
    >
      <ArrowLeft className="size-4" aria-hidden />
      {label}
    </a>
  );
}

/** In the payer's time zone and language; the date too unless it is today. */
function localTime(iso: string, intlTag: string, now: number | null): string {
  const date = new Date(iso);
  const sameDay = now !== null && new Date(now).toDateString() === date.toDateString();
  return new Intl.DateTimeFormat(intlTag, sameDay ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" }).format(date);
}
