"use client";

import { useState } from "react";
import type { CheckoutMessages } from "@/lib/web/i18n/checkout-messages";

/**
 * "Cancel and return to the shop", asked twice (a slip of the thumb should not end a payment).
 * The server cancels only a pending session with nothing received; then the payer goes back to
 * the shop's domain (never the redirectUrl, which shops treat as "paid"), or, inside
 * checkout.js's modal, the modal closes.
 */
export function CancelPayment({
  sessionId,
  t,
  onCancelled,
}: {
  sessionId: string;
  t: CheckoutMessages;
  onCancelled: (returnUrl: string | null) => void;
}) {
  const [step, setStep] = useState<"idle" | "confirm" | "busy" | "failed">("idle");
  async function cancel() {
    setStep("busy");
    const res = await fetch(`/api/checkout/${sessionId}/cancel`, { method: "POST", cache: "no-store" }).catch(() => null);
    if (!res?.ok) {
      setStep("failed");
      return;
    }
    const body = (await res.json()) as { data: { returnUrl: string | null } };
    onCancelled(body.data.returnUrl);
  }
  if (step === "idle" || step === "failed") {
    return (
      <div className="grid justify-items-center gap-1">
        <button
          type="button"
          onClick={() => setStep("confirm")}
          disabled={step === "failed"}
          className="rounded-md px-2 py-1 text-sm text-muted-foreground underline underline-offset-4 hover:text-foreground disabled:no-underline focus-visible:outline-2 focus-visible:outline-ring"
        >
          {t.cancelAndReturn}
        </button>
        {step === "failed" && (
          <p role="alert" className="text-center text-xs text-destructive">
            {t.cancelFailed}
          </p>
        )}
      </div>
    );
  }
  return (
    <div className="grid gap-3 rounded-xl border p-3 text-center text-sm" data-testid="cancel-confirm">
      <p>{t.cancelQuestion}</p>
      <div className="flex flex-wrap justify-center gap-2">
        <button
          type="button"
          onClick={cancel}
          disabled={step === "busy"}
          className="rounded-lg bg-destructive px-3 py-1.5 font-medium text-destructive-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {step === "busy" ? t.cancelling : t.cancelYes}
        </button>
        <button
          type="button"
          onClick={() => setStep("idle")}
          disabled={step === "busy"}
          className="rounded-lg border bg-background px-3 py-1.5 font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {t.cancelNo}
        </button>
      </div>
    </div>
  );
}
