import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StatusBlock, type StatusProps } from "@/components/checkout/status-block";
import type { CheckoutView } from "@/lib/web/checkout/checkout-view";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";

/** The receipt as the server renders it (the browser's clock not known yet). */
const hash = `0x${"ab".repeat(32)}`;
const view = {
  sessionId: "6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e",
  amount: "5",
  token: "USDT",
  orderId: "ORD-10042",
  createdAt: "2026-01-01T00:00:00.000Z",
} as CheckoutView;
const status = {
  status: "completed",
  receivedAmount: "5",
  remainingAmount: "0",
  overpaid: false,
  overpaidAmount: null,
  lateAmount: null,
  txHash: hash,
  completedAt: "2026-01-01T00:05:00.000Z",
  expiresAt: "2026-01-01T00:15:00.000Z",
} as StatusProps["status"];

function render(overrides: Partial<StatusProps> = {}) {
  return renderToStaticMarkup(
    createElement(StatusBlock, {
      status,
      view,
      t: CHECKOUT_MESSAGES.en,
      amount: (v: string) => v,
      now: null,
      intlTag: "en-US",
      explorerTxBase: "https://bscscan.com/tx/",
      returnUrl: "https://shop.example.com",
      redirectIn: null,
      ...overrides,
    }),
  );
}

describe("the receipt", () => {
  it("links the transaction to the explorer, names the order and the reference, and leads back to the shop", () => {
    const html = render();
    expect(html).toContain(`href="https://bscscan.com/tx/${hash}"`);
    expect(html).toContain("View transaction");
    expect(html).toContain('target="_blank"');
    expect(html).toContain("ORD-10042");
    expect(html).toContain(view.sessionId);
    expect(html).toMatch(/href="https:\/\/shop\.example\.com"[^>]*>.*Back to the shop/);
  });

  it("shows the hash, shortened, where there is no explorer, and no way back inside the embed", () => {
    const html = render({ explorerTxBase: null, returnUrl: null });
    expect(html).not.toContain("View transaction");
    expect(html).toContain(`title="${hash}"`);
    expect(html).toContain("0xabababab…abababab");
    expect(html).not.toContain("Back to the shop");
  });

  it("names the price first for a session priced in money, and no price for one priced in a token", () => {
    const fiat = { currency: "USD", fiatAmount: "25.00", tokenChosen: false, underpayBps: 0, quotes: [] };
    expect(render({ view: { ...view, fiat } })).toMatch(/Price<\/dt><dd[^>]*><span[^>]*data-testid="receipt-price"[^>]*>25.00 USD</);
    expect(render({ view: { ...view, fiat: null } })).not.toContain("receipt-price");
  });

  it("writes no time before the browser's clock is known (the server's time zone is not the payer's)", () => {
    expect(render()).toMatch(/data-testid="paid-at">\u00a0</);
  });
});
