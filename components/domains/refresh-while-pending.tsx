"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

const EVERY_MS = 1_500;
/** A receiver that never answers must not keep a forgotten tab polling forever. */
const MAX_POLLS = 40;

/**
 * Re-renders the page from the server every 1.5 s while a delivery shown on it is due soon, so a
 * test event turns "Delivered" (or "Retrying") without a reload. `dueKey` names those deliveries
 * and their attempts: each new attempt restarts the budget; an empty key stops polling.
 */
export function RefreshWhilePending({ dueKey }: { dueKey: string }) {
  const router = useRouter();
  useEffect(() => {
    if (!dueKey) return;
    let polls = 0;
    const timer = setInterval(() => {
      if (++polls > MAX_POLLS) clearInterval(timer);
      else if (!document.hidden) router.refresh();
    }, EVERY_MS);
    return () => clearInterval(timer);
  }, [dueKey, router]);
  return null;
}
