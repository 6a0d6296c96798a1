/**
 * Loads the gateway's checkout.js once per base URL, however many components ask for it, and
 * hands back the `BscPay` object that very script defined (captured on its load event, so two
 * gateways on one page do not mix). Browser only: call it from an effect or an event handler,
 * never during render.
 */
import type { CheckoutOutcome, CheckoutStatusEvent } from "./types.js";

/** The part of checkout.js's global `BscPay` this package uses. */
export interface BscPayGlobal {
  base?: string;
  open(
    sessionId: string,
    options?: {
      onCompleted?: (event: CheckoutStatusEvent) => void;
      onStatus?: (event: CheckoutStatusEvent) => void;
      onClosed?: (status: string | null) => void;
    },
  ): { close(): void; result?: Promise<CheckoutOutcome> };
}

const loads = new Map<string, Promise<BscPayGlobal>>();

/** `https://pay.example.com/` or `https://pay.example.com` → `https://pay.example.com/checkout.js`. */
export function checkoutScriptUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`BSC Pay: baseUrl must be the gateway's absolute URL (https://…), got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`BSC Pay: baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  return `${url.origin}/checkout.js`;
}

function globalBscPay(): BscPayGlobal | undefined {
  return (window as unknown as { BscPay?: BscPayGlobal }).BscPay;
}

export function loadCheckout(baseUrl: string): Promise<BscPayGlobal> {
  const src = checkoutScriptUrl(baseUrl);
  const known = loads.get(src);
  if (known !== undefined) return known;
  const loading = new Promise<BscPayGlobal>((resolve, reject) => {
    // The shop's own <script src=".../checkout.js"> already ran: use what it defined.
    const present = globalBscPay();
    if (present && present.base === new URL(src).origin) {
      resolve(present);
      return;
    }
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.setAttribute("data-bscpay-checkout", "");
    script.addEventListener("load", () => {
      const api = globalBscPay();
      if (api && typeof api.open === "function") resolve(api);
      else reject(new Error(`BSC Pay: ${src} loaded but did not define BscPay`));
    });
    script.addEventListener("error", () => reject(new Error(`BSC Pay: could not load ${src}`)));
    document.head.appendChild(script);
  });
  // A failed load may be retried later (the network came back): forget it.
  loading.catch(() => {
    if (loads.get(src) === loading) loads.delete(src);
  });
  loads.set(src, loading);
  return loading;
}
