import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CheckoutView } from "@/components/checkout/checkout-view";
import { loadCheckout } from "@/lib/payments/checkout-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pay · BSC Pay", robots: { index: false } };

/** The hosted checkout page a payer opens from checkoutUrl. */
export default async function PayPage({ params }: { params: Promise<{ sessionId: string }> }) {
  const view = await loadCheckout((await params).sessionId);
  if (!view) notFound();
  return <CheckoutView initial={view} />;
}
