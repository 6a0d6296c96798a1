import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PayButton } from "../src/react";
import { checkoutScriptUrl } from "../src/react/load-checkout";

/**
 * The React binding on a server (this file runs in Node, without window or document): the button
 * renders, and checkout.js's address comes from baseUrl or a clear error. What it does in a
 * browser: tests/e2e/pay-button.spec.ts.
 */
describe("PayButton on the server", () => {
  it("renders an enabled button with the default label and no window access", () => {
    expect(typeof globalThis.window).toBe("undefined");
    const html = renderToString(createElement(PayButton, { baseUrl: "https://pay.example.com", createSession: async () => "x" }));
    expect(html).toMatch(/^<span data-bscpay-button="" [^>]*><button type="button" [^>]*>Pay with crypto<\/button>/);
    expect(html).not.toContain("disabled");
    expect(html).toContain('role="alert"');
  });

  it("takes the label, the class (and then no inline style) and disabled", () => {
    const html = renderToString(
      createElement(PayButton, {
        baseUrl: "https://pay.example.com",
        createSession: async () => "x",
        label: "Bezahlen mit Krypto",
        className: "shop-button",
        disabled: true,
      }),
    );
    expect(html).toContain('<button type="button" class="shop-button" disabled="">Bezahlen mit Krypto</button>');
  });
});

describe("checkoutScriptUrl", () => {
  it("is checkout.js at the gateway's origin, whatever path or slash baseUrl has", () => {
    expect(checkoutScriptUrl("https://pay.example.com")).toBe("https://pay.example.com/checkout.js");
    expect(checkoutScriptUrl("https://pay.example.com/")).toBe("https://pay.example.com/checkout.js");
    expect(checkoutScriptUrl("http://127.0.0.1:3000/dashboard")).toBe("http://127.0.0.1:3000/checkout.js");
  });

  it("names a baseUrl that is not an absolute http(s) URL", () => {
    expect(() => checkoutScriptUrl("pay.example.com")).toThrow(
      'BSC Pay: baseUrl must be the gateway\'s absolute URL (https://…), got "pay.example.com"',
    );
    expect(() => checkoutScriptUrl("ftp://pay.example.com")).toThrow(
      'BSC Pay: baseUrl must be an http(s) URL, got "ftp://pay.example.com"',
    );
  });
});
