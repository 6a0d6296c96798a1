"use client";

/**
 * The hosted checkout as a React hook: loads `${baseUrl}/checkout.js` after the first render (never
 * during it, so server rendering works) and opens a session's checkout in checkout.js's modal.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { type BscPayGlobal, checkoutScriptUrl, loadCheckout } from "./load-checkout.js";
import type { CheckoutOutcome, CheckoutStatusEvent } from "./types.js";

export interface OpenCheckoutOptions {
  /** As soon as the checkout reports the payment completed (its receipt is still showing). */
  onCompleted?: (outcome: CheckoutOutcome) => void;
  /** Every status the checkout reports while open (`pending` first, then what changes). */
  onStatus?: (outcome: CheckoutOutcome) => void;
}

export interface BscPayCheckout {
  /** checkout.js has loaded: open() will show the modal at once. */
  ready: boolean;
  /** Why checkout.js could not be loaded (a wrong baseUrl, the network); open() rejects with it too. */
  error: Error | null;
  /**
   * Opens the session's checkout and resolves when its modal closes, with the last status heard.
   * Rejects only when the checkout cannot be shown (checkout.js failed to load, not a session id).
   */
  open(sessionId: string, options?: OpenCheckoutOptions): Promise<CheckoutOutcome>;
}

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));
const outcomeOf = (event: CheckoutStatusEvent): CheckoutOutcome => ({ sessionId: event.sessionId, status: event.status });

/**
 * One modal from `api`, resolved by checkout.js's own `result`; an older checkout.js without it
 * (a gateway not yet updated) is read from onClosed, which reports the same status.
 */
function openWith(
  api: BscPayGlobal,
  sessionId: string,
  options: OpenCheckoutOptions,
  track: (close: () => void) => () => void,
): Promise<CheckoutOutcome> {
  let resolveClosed: (outcome: CheckoutOutcome) => void = () => {};
  const closed = new Promise<CheckoutOutcome>((resolve) => {
    resolveClosed = resolve;
  });
  let untrack = () => {};
  const handle = api.open(sessionId, {
    onCompleted: options.onCompleted && ((event) => options.onCompleted?.(outcomeOf(event))),
    onStatus: options.onStatus && ((event) => options.onStatus?.(outcomeOf(event))),
    onClosed: (status) => {
      untrack();
      resolveClosed({ sessionId, status });
    },
  });
  untrack = track(handle.close);
  return handle.result ?? closed;
}

export function useBscPayCheckout(baseUrl: string): BscPayCheckout {
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  // The modals this component opened: closed with it, not left over the next page.
  const openModals = useRef(new Set<() => void>());
  // An open() still waiting (a shop's createSession, checkout.js loading) when the component goes.
  const mounted = useRef(true);

  useEffect(() => {
    let current = true;
    setReady(false);
    setError(null);
    loadCheckout(baseUrl).then(
      () => current && setReady(true),
      (e: unknown) => current && setError(asError(e)),
    );
    return () => {
      current = false;
    };
  }, [baseUrl]);

  useEffect(() => {
    const modals = openModals.current;
    mounted.current = true;
    return () => {
      mounted.current = false;
      for (const close of [...modals]) close();
    };
  }, []);

  const open = useCallback(
    async (sessionId: string, options: OpenCheckoutOptions = {}) => {
      checkoutScriptUrl(baseUrl); // a wrong baseUrl is named before anything is fetched
      const api = await loadCheckout(baseUrl);
      return openWith(api, sessionId, options, (close) => {
        if (!mounted.current) {
          // Opened after its component was gone: nothing would ever close it.
          close();
          return () => {};
        }
        openModals.current.add(close);
        return () => openModals.current.delete(close);
      });
    },
    [baseUrl],
  );

  return { ready, error, open };
}
