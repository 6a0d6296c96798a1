/**
 * One open checkout page's subscription to the process's change feed (checkout-hub.ts), which
 * reads the database itself: the events route holds no database handle.
 */
import { getDb } from "../db";
import { type CheckoutEvent, checkoutHub } from "./checkout-hub";

/** Calls `listener` with the session's status now and on every change; returns the unsubscribe. */
export function watchCheckout(sessionId: string, listener: (event: CheckoutEvent) => void): () => void {
  return checkoutHub(getDb).subscribe(sessionId, listener);
}
