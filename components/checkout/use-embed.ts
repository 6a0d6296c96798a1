"use client";

/**
 * The checkout's hooks that talk to the world around the page: back to the shop after completion,
 * and in the embed (checkout.js) the messages to the opening page — its status, Escape to close.
 */
import { useEffect, useRef, useState } from "react";

const REDIRECT_SECONDS = 5;

/** Back to the shop 5 s after completion (redirectUrl is http(s) only, checked on the server). */
export function useRedirect(url: string | null): number | null {
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

export function postToOpener(message: Record<string, unknown>) {
  if (openerOrigin) window.parent.postMessage(message, openerOrigin);
}

/**
 * In the embed, Escape closes the modal as it does on the shop's page: checkout.js hears keys only
 * there, and once the payer is in here the focus is too. Not while a dialog of ours is open (Escape
 * closes that first).
 */
export function useEmbedEscape(embed: boolean, sessionId: string) {
  useEffect(() => {
    if (!embed) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      postToOpener({ type: "bscpay:close", sessionId });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [embed, sessionId]);
}

/**
 * In the embed (checkout.js), tell the opening page how it ended — only if the server says its
 * origin is one the merchant whitelisted, and only to that origin.
 */
export function useEmbedReport(embed: boolean, sessionId: string, status: string) {
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
