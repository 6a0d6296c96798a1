"use client";

import { useEffect, useState } from "react";
import type { getCheckoutView } from "@/lib/payments/checkout-view";

type View = Awaited<ReturnType<typeof getCheckoutView>>;

const POLL_MS = 3000;
const NETWORK_NAMES: Record<string, string> = { bsc: "BNB Smart Chain", "bsc-testnet": "BNB Smart Chain Testnet", local: "Local chain" };

/** QR, amount, address, countdown and a status that updates itself while the payment is open. */
export function CheckoutView({ initial }: { initial: View }) {
  const [view, setView] = useState(initial);
  const [now, setNow] = useState(() => Date.now());
  const [copied, setCopied] = useState(false);
  const open = view.status === "pending";

  useEffect(() => {
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

  const secondsLeft = Math.max(0, Math.floor((new Date(view.expiresAt).getTime() - now) / 1000));
  const copy = async () => {
    await navigator.clipboard?.writeText(view.depositAddress).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <main className="container checkout">
      <section className="card">
        <p className="muted">Pay with {view.token} on {NETWORK_NAMES[view.network] ?? view.network}</p>
        <h1 data-testid="amount">
          {view.amount} {view.token}
        </h1>
        <StatusLine view={view} secondsLeft={secondsLeft} />
        {open && (
          <>
            {/* eslint-disable-next-line @next/next/no-img-element -- a data URI, nothing to optimise */}
            <img src={view.qrCode} alt={`QR code: send ${view.amount} ${view.token} to ${view.depositAddress}`} width={240} height={240} className="qr" />
            <p className="muted">Send exactly this amount of {view.token} (contract {view.tokenAddress}) to:</p>
            <p className="address">
              <code data-testid="deposit-address">{view.depositAddress}</code>{" "}
              <button type="button" onClick={copy}>
                {copied ? "Copied" : "Copy"}
              </button>
            </p>
            {view.receivedAmount && (
              <p>
                Received so far: {view.receivedAmount} {view.token}
              </p>
            )}
            <p>
              <a href={view.paymentUri}>Open in wallet</a>
            </p>
          </>
        )}
      </section>
    </main>
  );
}

function StatusLine({ view, secondsLeft }: { view: View; secondsLeft: number }) {
  switch (view.status) {
    case "completed":
      return (
        <div role="status" className="status ok">
          <h2>Payment received</h2>
          <p>
            {view.receivedAmount} {view.token} arrived{view.txHash ? ` in transaction ${view.txHash.slice(0, 10)}…` : ""}.
          </p>
          {view.redirectUrl && <a href={view.redirectUrl}>Back to the shop</a>}
        </div>
      );
    case "expired":
      return (
        <div role="status" className="status bad">
          <h2>This payment has expired</h2>
          <p>Do not send funds to its address; ask the shop for a new payment.</p>
        </div>
      );
    case "cancelled":
      return (
        <div role="status" className="status bad">
          <h2>This payment was cancelled</h2>
        </div>
      );
    default:
      return (
        <p role="status" className="status">
          Waiting for your payment · {Math.floor(secondsLeft / 60)}:{String(secondsLeft % 60).padStart(2, "0")} left
        </p>
      );
  }
}
