/**
 * The payer's "Cancel and return to the shop". Anyone holding the session id (an unguessable
 * UUID v4 given only to the payer) may cancel it, under the very rule of the API's cancel
 * (lib/domain/payments/cancel-session.ts, in the scope of the session's own merchant): pending → cancelled,
 * the latest block kept so a transfer already mined still counts. Narrower than the merchant's:
 * a session that has received part of its amount is not the payer's to cancel (the shop holds
 * their money; only the shop can settle it), and anything but a pending session is refused with
 * an error that says so, leaving it as it was. The payer then goes back to the shop's origin.
 */

import { commonRefusal } from "../../base/errors";
import type { Db } from "../../db";
import { cancelPaymentSession } from "../../domain/payments/cancel-session";
import { findSession } from "../../domain/payments/find-session";
import { paymentRefusal } from "../../domain/payments/reasons";
import { shopOrigin } from "./checkout-view";

export async function cancelCheckout(db: Db, sessionId: string): Promise<{ status: "cancelled"; returnUrl: string | null }> {
  const found = await findSession(db, sessionId); // expires it first if its time is up
  if (!found) throw commonRefusal("NOT_FOUND", "not-found", "payment session not found");
  const { session } = found;
  if (session.status !== "pending")
    throw paymentRefusal("VALIDATION_ERROR", "payment-not-pending", `this payment is already ${session.status}; nothing changed`);
  if (session.receivedAmount > 0n) {
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "payment-partly-paid",
      "part of this payment has already arrived, so only the shop can cancel it; nothing changed",
    );
  }
  const outcome = await cancelPaymentSession(db, { userId: session.userId }, sessionId, "payer");
  // A payment or the expiry won the race between the read above and the cancel (which the decider refuses then).
  if (outcome.status === "pending") {
    throw paymentRefusal(
      "VALIDATION_ERROR",
      "payment-partly-paid",
      "part of this payment has already arrived, so only the shop can cancel it; nothing changed",
    );
  }
  if (outcome.status !== "cancelled")
    throw paymentRefusal("VALIDATION_ERROR", "payment-not-pending", `this payment is already ${outcome.status}; nothing changed`);
  // The shop's origin, never its redirectUrl: that is the page for a completed payment.
  return { status: "cancelled", returnUrl: await shopOrigin(db, session.domainId) };
}
