"use client";

/**
 * "Pay with crypto": asks the shop's server for a payment session (`createSession`), opens the
 * hosted checkout in checkout.js's modal and reports how it ended. The same button as checkout.js's
 * `BscPay.button`, rendered by React (on the server too: checkout.js loads after hydration).
 */
import { type CSSProperties, useId, useState } from "react";
import type { CheckoutOutcome } from "./types.js";
import { useBscPayCheckout } from "./use-bscpay-checkout.js";

export interface PayButtonProps {
  /** The gateway's address, e.g. `https://pay.example.com`: checkout.js is loaded from there. */
  baseUrl: string;
  /** Creates the payment on the shop's server and returns its session id. */
  createSession: () => Promise<string>;
  /** When the modal closes: the last status the checkout reported (null if none reached the page). */
  onOutcome?: (outcome: CheckoutOutcome) => void;
  /** As soon as the checkout reports the payment completed, while its receipt still shows. */
  onCompleted?: (outcome: CheckoutOutcome) => void;
  /** Every status the checkout reports while open (`pending` once it has loaded, then each change). */
  onStatus?: (outcome: CheckoutOutcome) => void;
  /** createSession threw, checkout.js could not load, or the id was not a session's. */
  onError?: (error: Error) => void;
  /** The button's text; "Pay with crypto" by default. */
  label?: string;
  /** The text while createSession runs; "Starting payment…" by default. */
  busyLabel?: string;
  /** Shown under the button when the payment could not be started. */
  errorText?: string;
  /** Replaces the default look: the button then has this class and no style of its own. */
  className?: string;
  disabled?: boolean;
}

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
// checkout.js's default look, inline (no stylesheet to ship): BNB yellow with near-black text reads
// the same on a light and a dark page; the focus ring is the browser's own.
const BUTTON_STYLE: CSSProperties = {
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  minHeight: 44,
  padding: "10px 20px",
  border: "1px solid #c99a06",
  borderRadius: 10,
  background: "#f0b90b",
  color: "#181a20",
  font: `600 16px/1.2 ${FONT}`,
  cursor: "pointer",
};
const WRAPPER_STYLE: CSSProperties = { display: "inline-flex", flexDirection: "column", alignItems: "flex-start", gap: 6 };
const ERROR_STYLE: CSSProperties = { font: `14px/1.4 ${FONT}`, color: "inherit" };

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

export function PayButton({
  baseUrl,
  createSession,
  onOutcome,
  onCompleted,
  onStatus,
  onError,
  label = "Pay with crypto",
  busyLabel = "Starting payment…",
  errorText = "The payment could not be started. Please try again.",
  className,
  disabled = false,
}: PayButtonProps) {
  const checkout = useBscPayCheckout(baseUrl);
  // starting: createSession runs (busy); open: the modal is up (a second click does nothing).
  const [phase, setPhase] = useState<"idle" | "starting" | "open">("idle");
  const [failed, setFailed] = useState(false);
  const errorId = useId();

  async function start() {
    if (disabled || phase !== "idle") return;
    setFailed(false);
    setPhase("starting");
    let outcome: CheckoutOutcome;
    try {
      const sessionId = await createSession();
      setPhase("open");
      outcome = await checkout.open(sessionId, { onCompleted, onStatus });
    } catch (e) {
      setPhase("idle");
      setFailed(true);
      onError?.(asError(e));
      return;
    }
    setPhase("idle");
    onOutcome?.(outcome);
  }

  const busy = phase === "starting";
  const style = className
    ? undefined
    : { ...BUTTON_STYLE, ...(busy || disabled ? { cursor: busy ? "progress" : "not-allowed", opacity: 0.75 } : {}) };
  return (
    <span data-bscpay-button="" style={WRAPPER_STYLE}>
      <button
        type="button"
        className={className}
        style={style}
        disabled={disabled}
        // Busy is aria-disabled, not disabled: the button keeps the focus, and the modal gives it back here.
        aria-disabled={busy || undefined}
        aria-busy={busy || undefined}
        aria-describedby={failed ? errorId : undefined}
        onClick={() => {
          void start();
        }}
      >
        {busy ? busyLabel : label}
      </button>
      {/* Present from the start, so that screen readers announce the message when it appears. */}
      <span id={errorId} role="alert" data-bscpay-error="" style={failed ? ERROR_STYLE : { display: "none" }}>
        {failed ? errorText : ""}
      </span>
    </span>
  );
}
