/** The types the React binding shares with checkout.js's messages. */

/** A payment session's status as the checkout reports it; other values may come in later versions. */
export type CheckoutStatus = "pending" | "completed" | "expired" | "cancelled" | (string & {});

/**
 * How a checkout ended, from the shop page's point of view: the last status the checkout reported
 * before its modal closed, or null when none reached the page (its origin is not one of the
 * merchant's whitelisted domains, or the modal closed before the checkout loaded). A hint for the
 * page only: the shop's server learns the truth from the webhook or the status API.
 */
export interface CheckoutOutcome {
  sessionId: string;
  status: CheckoutStatus | null;
}

/** A status message from the checkout while its modal is open. */
export interface CheckoutStatusEvent {
  type: "bscpay:status";
  sessionId: string;
  status: CheckoutStatus;
}
