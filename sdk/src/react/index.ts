"use client";

/**
 * BSC Pay for React: the drop-in "Pay with crypto" button and the hook under it. React is a peer
 * dependency; the checkout itself is the gateway's checkout.js, loaded at run time.
 * docs/checkout.md, "Drop-in button".
 */
export { PayButton, type PayButtonProps } from "./pay-button.js";
export type { CheckoutOutcome, CheckoutStatus, CheckoutStatusEvent } from "./types.js";
export { type BscPayCheckout, type OpenCheckoutOptions, useBscPayCheckout } from "./use-bscpay-checkout.js";
