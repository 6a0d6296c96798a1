"use client";

import { CheckCircle2, CircleAlert, Clock, Copy, ExternalLink, X } from "lucide-react";
import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { Logo } from "@/components/brand/logo";
import type { CheckoutView as View } from "@/lib/checkout/checkout-view";
import type { CheckoutMessages } from "@/lib/i18n/checkout-messages";
import { fill, formatDecimal, type Locale, type NumberSymbols } from "@/lib/i18n/locale";
import { LanguageSwitcher } from "./language-switcher";
import { useCheckoutFeed } from "./use-checkout-feed";

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

const REDIRECT_SECONDS = 5;

/** The hosted checkout: every state of a payment, live, for the payer. */
export function CheckoutView({ initial, locale, symbols, messages: t, embed, localRpcUrl, explorerTxBase }: CheckoutPageProps) {
  const [view, setView] = useState(initial);
  const status = useCheckoutFeed(initial.sessionId, { ...initial, head: null });
  const now = useNow();
  const amount = (value: string) => formatDecimal(value, symbols);
  const networkName = { bsc: t.networkBsc, "bsc-testnet": t.networkBscTestnet, local: t.networkLocal }[view.network] ?? view.network;

  // After a partial payment the QR code and the EIP-681 link must ask for what is left: refetch them.
  useEffect(() => {
    if (status.remainingUnits === view.remainingUnits) return;
    fetch(`/api/checkout/${view.sessionId}`, { cache: "no-store" })
      .then((res) => (res.ok ? res.json() : null))
      .then((body: { data: View } | null) => body && setView(body.data))
      .catch(() => undefined);
  }, [status.remainingUnits, view.remainingUnits, view.sessionId]);

  useEmbedReport(embed, view.sessionId, status.status);
  const redirectIn = useRedirect(!embed && status.status === "completed" ? view.redirectUrl : null);

  const partial = status.status === "pending" && status.receivedAmount !== null;
  const secondsLeft = now === null ? null : Math.max(0, Math.floor((Date.parse(status.expiresAt) - now) / 1000));

  return (
    <div className={embed ? "min-h-dvh bg-background" : "min-h-dvh bg-muted/40"}>
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
      <main className="mx-auto w-full max-w-md px-4 pt-4 pb-10">
        <section className="grid gap-5 rounded-2xl border bg-card p-5 shadow-sm sm:p-6" aria-labelledby="checkout-amount">
          <div className="grid gap-1 text-center">
            <p className="text-sm text-muted-foreground">{fill(t.payWith, { token: view.token, network: networkName })}</p>
            <h1 id="checkout-amount" data-testid="amount" className="text-4xl font-semibold tracking-tight tabular-nums select-all">
              {amount(view.amount)} {view.token}
            </h1>
          </div>

          <StatusBlock
            status={status}
            t={t}
            amount={amount}
            token={view.token}
            sessionId={view.sessionId}
            partial={partial}
            secondsLeft={secondsLeft}
            redirectUrl={embed ? null : view.redirectUrl}
            redirectIn={redirectIn}
            total={view.amount}
          />

          {status.status === "pending" && (
            <>
              <PayWithWallet
                payment={{
                  chainId: view.chainId,
                  networkName,
                  localRpcUrl,
                  token: view.token,
                  tokenAddress: view.tokenAddress,
                  decimals: view.decimals,
                  depositAddress: view.depositAddress,
                  remainingUnits: status.remainingUnits,
                  explorerTxBase,
                  confirmationsRequired: status.confirmationsRequired,
                  head: status.head,
                }}
                messages={t}
                locale={symbols}
              />
              <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden>
                <span className="h-px flex-1 bg-border" />
                {t.orPayManually}
                <span className="h-px flex-1 bg-border" />
              </div>
              <div className="grid justify-items-center gap-3 text-center">
                {/* eslint-disable-next-line @next/next/no-img-element -- a data URI, nothing to optimise */}
                <img
                  src={view.qrCode}
                  alt={fill(t.qrAlt, { amount: amount(view.remainingAmount), token: view.token, address: view.depositAddress })}
                  data-payment-uri={view.paymentUri}
                  width={208}
                  height={208}
                  className="rounded-xl bg-white p-2 shadow-sm"
                />
                <p className="text-xs text-muted-foreground">{t.scanQr}</p>
                <p className="text-sm">{fill(t.sendExactly, { token: view.token })}</p>
                <div className="flex w-full items-center gap-2 rounded-xl border bg-muted/50 p-3">
                  <code data-testid="deposit-address" className="min-w-0 flex-1 text-left font-mono text-base break-all select-all">
                    {view.depositAddress}
                  </code>
                  <CopyButton value={view.depositAddress} label={t.copyAddress} copied={t.copied} />
                </div>
                <div className="flex w-full items-center justify-between gap-2 rounded-xl border bg-muted/50 p-3 text-left">
                  <span className="text-lg font-semibold tabular-nums select-all" data-testid="remaining-amount">
                    {amount(view.remainingAmount)} {view.token}
                  </span>
                  <CopyButton value={view.remainingAmount} label={t.copyAmount} copied={t.copied} />
                </div>
                <p className="w-full text-left text-xs break-all text-muted-foreground">
                  {t.tokenContract}: <span className="font-mono">{view.tokenAddress}</span>
                </p>
                <a
                  href={view.paymentUri}
                  data-testid="payment-uri"
                  className="inline-flex items-center gap-1 text-sm font-medium underline underline-offset-4"
                >
                  {t.openInWallet} <ExternalLink className="size-3.5" aria-hidden />
                </a>
              </div>
            </>
          )}
        </section>
        <p className="mt-4 text-center text-xs text-muted-foreground">{t.poweredBy}</p>
      </main>
    </div>
  );
}

function StatusBlock(props: {
  status: ReturnType<typeof useCheckoutFeed>;
  t: CheckoutMessages;
  amount: (v: string) => string;
  token: string;
  sessionId: string;
  partial: boolean;
  secondsLeft: number | null;
  redirectUrl: string | null;
  redirectIn: number | null;
  total: string;
}) {
  const { status, t, amount, token } = props;
  if (status.status === "completed") {
    return (
      <div role="status" className="grid gap-2 rounded-xl border border-success/30 bg-success/10 p-4 text-center">
        <CheckCircle2 className="mx-auto size-8 text-success" aria-hidden />
        <h2 className="text-lg font-semibold">{t.completedTitle}</h2>
        <p className="text-sm">{fill(t.completedText, { amount: amount(status.receivedAmount ?? "0"), token })}</p>
        {status.overpaid && status.overpaidAmount && (
          <p className="text-sm text-muted-foreground">{fill(t.overpaid, { extra: amount(status.overpaidAmount), token })}</p>
        )}
        {status.lateAmount && <p className="text-sm text-muted-foreground">{fill(t.late, { amount: amount(status.lateAmount), token })}</p>}
        {status.lateAmount && <Reference label={t.reference} sessionId={props.sessionId} />}
        {props.redirectUrl && (
          <div className="grid gap-1">
            <a href={props.redirectUrl} className="font-medium underline underline-offset-4">
              {t.backToShop}
            </a>
            {props.redirectIn !== null && (
              <p className="text-xs text-muted-foreground">{fill(t.redirecting, { seconds: props.redirectIn })}</p>
            )}
          </div>
        )}
      </div>
    );
  }
  if (status.status === "expired" || status.status === "cancelled") {
    return (
      <div role="status" className="grid gap-2 rounded-xl border border-destructive/30 bg-destructive/10 p-4 text-center">
        <CircleAlert className="mx-auto size-8 text-destructive" aria-hidden />
        <h2 className="text-lg font-semibold">{status.status === "expired" ? t.expiredTitle : t.cancelledTitle}</h2>
        <p className="text-sm">{status.status === "expired" ? t.expiredText : t.cancelledText}</p>
        <Reference label={t.reference} sessionId={props.sessionId} />
        {status.lateAmount && <p className="text-sm text-muted-foreground">{fill(t.late, { amount: amount(status.lateAmount), token })}</p>}
      </div>
    );
  }
  const time =
    props.secondsLeft === null ? null : `${Math.floor(props.secondsLeft / 60)}:${String(props.secondsLeft % 60).padStart(2, "0")}`;
  return (
    <div role="status" className="grid gap-1 text-center">
      {props.partial && status.receivedAmount ? (
        <p className="rounded-lg bg-warning/10 px-3 py-2 text-sm font-medium text-foreground" data-testid="partial">
          {fill(t.partial, {
            received: amount(status.receivedAmount),
            amount: amount(props.total),
            token,
            remaining: amount(status.remainingAmount),
          })}
        </p>
      ) : (
        <p className="text-sm font-medium">{t.waiting}</p>
      )}
      <p className="inline-flex items-center justify-center gap-1 text-xs text-muted-foreground tabular-nums">
        <Clock className="size-3.5" aria-hidden />
        {time === null ? "\u00a0" : fill(t.timeLeft, { time })}
      </p>
    </div>
  );
}

function Reference({ label, sessionId }: { label: string; sessionId: string }) {
  return (
    <p className="text-xs">
      {label}: <span className="font-mono break-all select-all">{sessionId}</span>
    </p>
  );
}

function CopyButton({ value, label, copied: copiedLabel }: { value: string; label: string; copied: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        } catch {
          setCopied(false);
        }
      }}
      className="inline-flex shrink-0 items-center gap-1 rounded-lg bg-primary px-3 py-1.5 text-xs font-medium text-primary-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      <Copy className="size-3.5" aria-hidden />
      <span aria-live="polite">{copied ? copiedLabel : label.split(" ")[0]}</span>
    </button>
  );
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

/** Back to the shop 5 s after completion (redirectUrl is http(s) only, checked on the server). */
function useRedirect(url: string | null): number | null {
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    if (!url) return;
    const end = Date.now() + REDIRECT_SECONDS * 1000;
    setLeft(REDIRECT_SECONDS);
    const tick = setInterval(() => {
      const remaining = Math.ceil((end - Date.now()) / 1000);
      if (remaining <= 0) {
        clearInterval(tick);
        window.location.assign(url);
      } else setLeft(remaining);
    }, 250);
    return () => clearInterval(tick);
  }, [url]);
  return left;
}

let openerOrigin: string | null = null;

function postToOpener(message: Record<string, unknown>) {
  if (openerOrigin) window.parent.postMessage(message, openerOrigin);
}

/**
 * In the embed (checkout.js), tell the opening page how it ended — only if the server says its
 * origin is one the merchant whitelisted, and only to that origin.
 */
function useEmbedReport(embed: boolean, sessionId: string, status: string) {
  const checked = useRef<Promise<string | null> | null>(null);
  useEffect(() => {
    if (!embed || window.parent === window) return;
    checked.current ??= (async () => {
      const origin = window.location.ancestorOrigins?.[0] ?? (document.referrer ? new URL(document.referrer).origin : null);
      if (!origin) return null;
      const res = await fetch(`/api/checkout/${sessionId}/embed?origin=${encodeURIComponent(origin)}`, { cache: "no-store" }).catch(
        () => null,
      );
      const allowed = res?.ok ? ((await res.json()) as { data: { allowed: boolean } }).data.allowed : false;
      openerOrigin = allowed ? origin : null;
      return openerOrigin;
    })();
    void checked.current.then((origin) => origin && postToOpener({ type: "bscpay:status", sessionId, status }));
  }, [embed, sessionId, status]);
}
