"use client";

import { useEffect, useState } from "react";
import type { getCheckoutView } from "@/lib/payments/checkout-view";

type View = Awaited<ReturnType<typeof getCheckoutView>>;

const POLL_MS = 3000;
const NETWORK_NAMES: Record<string, string> = { bsc: "BNB Smart Chain", "bsc-testnet": "BNB Smart Chain Testnet", local: "Local chain" };

/** QR, amount, address, countdown and a status that updates itself while the payment is open. */
export function CheckoutView({ initial }: { initial: View }) {
  const [view, setView] = useState(initial);
  // null until mounted: the server's clock is not the payer's, and the countdown must not mismatch on hydration.
  const [now, setNow] = useState<number | null>(null);
  const [copied, setCopied] = useState(false);
  const open = view.status === "pending";

  useEffect(() => {
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);

  useEffect(() => {
    if (!open) return;
    const poll = setInterval(async () => {
      const res = await fetch(`/api/checkout/${view.sessionId}`, { cache: "no-store" }).catch(() => null);
      if (res?.ok) setView(((await res.json()) as { data: View }).data);
    }, POLL_MS);
    return () => clearInterval(poll);
  }, [open, view.sessionId]);

  useEffect(() => {
    if (view.status !== "completed" || !view.redirectUrl) return;
    const go = setTimeout(() => window.location.assign(view.redirectUrl!), 5000);
    return () => clearTimeout(go);
  }, [view.status, view.redirectUrl]);

  const secondsLeft = now === null ? null : Math.max(0, Math.floor((new Date(view.expiresAt).getTime() - now) / 1000));
  const copy = async () => {
    await navigator.clipboard?.writeText(view.depositAddress).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center px-4 py-10">
      <section className="rounded-2xl border bg-card p-6 text-center shadow-sm">
        <p className="text-sm text-muted-foreground">Pay with {view.token} on {NETWORK_NAMES[view.network] ?? view.network}</p>
        <h1 data-testid="amount" className="mt-1 mb-3 text-3xl font-semibold tracking-tight tabular-nums">
          {view.amount} {view.token}
        </h1>
        <StatusLine view={view} secondsLeft={secondsLeft} />
        {open && (
          <>
            {/* eslint-disable-next-line @next/next/no-img-element -- a data URI, nothing to optimise */}
            <img src={view.qrCode} alt={`QR code: send ${view.amount} ${view.token} to ${view.depositAddress}`} width={240} height={240} className="mx-auto my-4 rounded-lg bg-white p-2" />
            <p className="text-sm text-muted-foreground">
              Send exactly this amount of {view.token} <span className="break-all">(contract {view.tokenAddress})</span> to:
            </p>
            <p className="mt-2 flex items-center justify-center gap-2">
              <code data-testid="deposit-address" className="rounded-md bg-muted px-2 py-1 font-mono text-sm break-all select-all">
                {view.depositAddress}
              </code>
              <button type="button" onClick={copy} className="rounded-md bg-brand px-3 py-1 text-sm font-medium text-brand-foreground">
                {copied ? "Copied" : "Copy"}
              </button>
            </p>
            {view.receivedAmount && (
              <p className="mt-3 text-sm">
                Received so far: {view.receivedAmount} {view.token}
              </p>
            )}
            <p className="mt-4">
              <a href={view.paymentUri} className="text-sm font-medium underline underline-offset-4">
                Open in wallet
              </a>
            </p>
          </>
        )}
      </section>
    </main>
  );
}

function StatusLine({ view, secondsLeft }: { view: View; secondsLeft: number | null }) {
  switch (view.status) {
    case "completed":
      return (
        <div role="status" className="grid gap-1">
          <h2 className="text-lg font-semibold text-success">Payment received</h2>
          <p>
            {view.receivedAmount} {view.token} arrived{view.txHash ? ` in transaction ${view.txHash.slice(0, 10)}…` : ""}.
          </p>
          {view.redirectUrl && (
            <a href={view.redirectUrl} className="text-sm font-medium underline underline-offset-4">
              Back to the shop
            </a>
          )}
        </div>
      );
    case "expired":
      return (
        <div role="status" className="grid gap-1">
          <h2 className="text-lg font-semibold text-destructive">This payment has expired</h2>
          <p className="text-sm text-muted-foreground">Do not send funds to its address; ask the shop for a new payment.</p>
        </div>
      );
    case "cancelled":
      return (
        <div role="status" className="grid gap-1">
          <h2 className="text-lg font-semibold text-destructive">This payment was cancelled</h2>
        </div>
      );
    default:
      return (
        <p role="status" className="text-sm">
          Waiting for your payment
          {secondsLeft !== null && (
            <span className="tabular-nums">
              {" "}
              · {Math.floor(secondsLeft / 60)}:{String(secondsLeft % 60).padStart(2, "0")} left
            </span>
          )}
        </p>
      );
  }
}
