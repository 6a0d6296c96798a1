"use client";

import { useEffect, useRef, useState } from "react";
import type { CheckoutStatus } from "@/lib/web/checkout/checkout-view";

export type LiveStatus = CheckoutStatus & { head: number | null };

const TERMINAL = new Set(["completed", "expired", "cancelled"]);
const FALLBACK_POLL_MS = 10_000;

/**
 * The session's live status: Server-Sent Events (the browser reconnects by itself), and a 10 s
 * poll of /api/checkout/:id when events are unavailable or keep failing. Stops at a terminal state.
 */
export function useCheckoutFeed(sessionId: string, initial: LiveStatus): LiveStatus {
  const [status, setStatus] = useState(initial);
  const done = useRef(TERMINAL.has(initial.status));
  useEffect(() => {
    if (done.current) return;
    let source: EventSource | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    let failures = 0;
    const accept = (next: LiveStatus) => {
      setStatus(next);
      if (TERMINAL.has(next.status)) {
        done.current = true;
        source?.close();
        if (poll) clearInterval(poll);
      }
    };
    const startPolling = () => {
      if (poll || done.current) return;
      poll = setInterval(async () => {
        const res = await fetch(`/api/checkout/${sessionId}`, { cache: "no-store" }).catch(() => null);
        if (res?.ok) accept({ ...((await res.json()) as { data: CheckoutStatus }).data, head: null });
      }, FALLBACK_POLL_MS);
    };
    if (typeof EventSource === "undefined") {
      startPolling();
    } else {
      source = new EventSource(`/api/checkout/${sessionId}/events`);
      source.addEventListener("status", (event) => {
        failures = 0;
        accept(JSON.parse((event as MessageEvent<string>).data) as LiveStatus);
      });
      source.onerror = () => {
        if (done.current) return;
        // Refused (e.g. 429: too many open streams) the browser does not retry: poll at once.
        // Otherwise it retries on its own; after repeated failures, poll as well.
        if (source?.readyState === EventSource.CLOSED || ++failures >= 3) startPolling();
      };
    }
    return () => {
      source?.close();
      if (poll) clearInterval(poll);
    };
  }, [sessionId]);
  return status;
}
