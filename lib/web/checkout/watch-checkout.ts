/**
 * One open checkout page's subscription to the process's change feed (checkout-hub.ts), which
 * reads the database itself: the events route holds no database handle.
 */
import { getDatabase, getDb } from "../../db";
import { SESSION_CHANGES_CHANNEL } from "../../domain/payments/session-changes";
import { type ChangeSource, type CheckoutEvent, checkoutHub } from "./checkout-hub";

/** Session changes announced by any process of this database (PostgreSQL NOTIFY). */
const sessionChanges: ChangeSource = async (onChange) =>
  (await getDatabase()).listen(SESSION_CHANGES_CHANNEL, (payload) => onChange(payload.split(",")));

/** Calls `listener` with the session's status now and on every change; returns the unsubscribe. */
export function watchCheckout(sessionId: string, listener: (event: CheckoutEvent) => void): () => void {
  return checkoutHub(getDb, sessionChanges).subscribe(sessionId, listener);
}
