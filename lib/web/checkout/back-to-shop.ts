/**
 * Where the checkout's "Back to the shop" leads: the redirectUrl only once the payment is
 * completed (shops read a visit there as "paid" and thank the payer); the shop's own origin for a
 * payment that expired or was cancelled, or when the shop gave no redirectUrl. Kept apart from
 * checkout-view.ts so the browser's bundle takes none of its server imports.
 */

import type { CheckoutView } from "./checkout-view";

export function backToShopUrl(view: Pick<CheckoutView, "redirectUrl" | "shopUrl">, status: string): string | null {
  return (status === "completed" ? view.redirectUrl : null) ?? view.shopUrl;
}
