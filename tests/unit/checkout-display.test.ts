import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NetworkChip } from "@/components/checkout/network-notice";
import { addressGroups } from "@/lib/web/checkout/address-groups";
import { backToShopUrl } from "@/lib/web/checkout/back-to-shop";
import { formatTimeLeft, fractionLeft, timeTone } from "@/lib/web/checkout/time-left";
import { metamaskLink, TRUST_WALLET_BSC_COIN_ID, trustWalletLink, walletCheckoutUrl } from "@/lib/web/checkout/wallet-links";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";

describe("the deposit address in groups", () => {
  const address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";

  it("is 0x then ten groups of four, the first and last emphasised, and joins back to the address", () => {
    const groups = addressGroups(address);
    expect(groups.map((g) => g.text)).toEqual(["0x", "5aAe", "b605", "3F3E", "94C9", "b9A0", "9f33", "6694", "35E7", "Ef1B", "eAed"]);
    expect(groups.filter((g) => g.emphasis).map((g) => g.text)).toEqual(["5aAe", "eAed"]);
    expect(groups.map((g) => g.text).join("")).toBe(address);
  });

  it.each([
    "",
    "0x123",
    `${"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}0`,
    "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00",
    "0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  ])("refuses %j", (bad) => {
    expect(() => addressGroups(bad)).toThrow(/not a 20-byte hex address/);
  });
});

describe("the network chip", () => {
  it.each([
    ["es", "Cadena de pruebas local (BEP-20)"],
    ["ru", "Локальная тестовая сеть (BEP-20)"],
    ["en", "Local test chain (BEP-20)"],
  ] as const)("%s: starts with a capital though the name is written for mid-sentence", (locale, chip) => {
    const t = CHECKOUT_MESSAGES[locale];
    const html = renderToStaticMarkup(createElement(NetworkChip, { network: "local", networkName: t.networkLocal, t }));
    expect(html.replace(/<[^>]*>/g, "")).toContain(chip);
  });
});

describe("back to the shop", () => {
  const view = { redirectUrl: "https://shop.example.com/thanks?order=7", shopUrl: "https://shop.example.com" };

  it("is the redirectUrl only for a completed payment: shops read a visit there as paid", () => {
    expect(backToShopUrl(view, "completed")).toBe("https://shop.example.com/thanks?order=7");
    for (const status of ["expired", "cancelled", "pending"]) expect(backToShopUrl(view, status)).toBe("https://shop.example.com");
  });

  it("is the shop's origin without a redirectUrl, and nothing without either", () => {
    expect(backToShopUrl({ ...view, redirectUrl: null }, "completed")).toBe("https://shop.example.com");
    expect(backToShopUrl({ redirectUrl: null, shopUrl: null }, "expired")).toBeNull();
    expect(backToShopUrl({ redirectUrl: view.redirectUrl, shopUrl: null }, "cancelled")).toBeNull();
  });
});

describe("the time left", () => {
  it.each([
    [3600, "normal"],
    [300, "normal"],
    [299, "warning"],
    [60, "warning"],
    [59, "danger"],
    [0, "danger"],
  ] as const)("%i s is %s", (seconds, tone) => {
    expect(timeTone(seconds)).toBe(tone);
  });

  it.each([
    [0, "0:00"],
    [5, "0:05"],
    [65, "1:05"],
    [3599, "59:59"],
    [3600, "1:00:00"],
    [3723, "1:02:03"],
    [-4, "0:00"],
  ] as const)("%i s reads %s", (seconds, text) => {
    expect(formatTimeLeft(seconds)).toBe(text);
  });

  it("is a share of the session's lifetime, kept within 0 and 1", () => {
    const created = "2026-01-01T00:00:00.000Z";
    const expires = "2026-01-01T00:30:00.000Z";
    expect(fractionLeft(created, expires, Date.parse(created))).toBe(1);
    expect(fractionLeft(created, expires, Date.parse("2026-01-01T00:15:00.000Z"))).toBe(0.5);
    expect(fractionLeft(created, expires, Date.parse("2026-01-01T01:00:00.000Z"))).toBe(0);
    expect(fractionLeft(created, expires, Date.parse("2025-12-31T23:00:00.000Z"))).toBe(1);
    expect(fractionLeft(expires, expires, Date.parse(created))).toBe(1);
  });
});

describe("links into mobile wallets' browsers", () => {
  const page = "https://pay.example.com/pay/6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e?lang=vi#top";

  it("MetaMask: its dapp link with host, path and query, no scheme, no fragment", () => {
    expect(metamaskLink(page)).toBe("https://metamask.app.link/dapp/pay.example.com/pay/6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e?lang=vi");
    expect(metamaskLink("http://localhost:3000/pay/x")).toBe("https://metamask.app.link/dapp/localhost:3000/pay/x");
  });

  it("Trust Wallet: open_url on BNB Smart Chain with the whole page URL encoded", () => {
    const link = new URL(trustWalletLink(page));
    expect(`${link.origin}${link.pathname}`).toBe("https://link.trustwallet.com/open_url");
    expect(link.searchParams.get("coin_id")).toBe(String(TRUST_WALLET_BSC_COIN_ID));
    expect(TRUST_WALLET_BSC_COIN_ID).toBe(20000714);
    expect(link.searchParams.get("url")).toBe("https://pay.example.com/pay/6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e?lang=vi");
    expect(trustWalletLink(page)).toContain("url=https%3A%2F%2Fpay.example.com%2Fpay%2F");
  });

  it.each(["javascript:alert(1)", "ethereum:0xabc", "not a url"])("refuses %j", (bad) => {
    expect(() => metamaskLink(bad)).toThrow();
    expect(() => trustWalletLink(bad)).toThrow();
  });

  it("open the plain hosted checkout in the chosen language, never the embed", () => {
    const embedded = "https://pay.example.com/pay/6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e?embed=1&lang=en#x";
    const plain = walletCheckoutUrl(embedded, "tr");
    expect(plain).toBe("https://pay.example.com/pay/6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e?lang=tr");
    // Chosen with the switcher (a cookie the wallet's browser does not have): the link says it.
    expect(walletCheckoutUrl("http://localhost:3000/pay/x", "zh")).toBe("http://localhost:3000/pay/x?lang=zh");
    expect(walletCheckoutUrl("https://pay.example.com/pay/x?embed=1", "en")).toBe("https://pay.example.com/pay/x?lang=en");
    expect(metamaskLink(plain)).toBe("https://metamask.app.link/dapp/pay.example.com/pay/6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e?lang=tr");
    expect(new URL(trustWalletLink(plain)).searchParams.get("url")).toBe(plain);
    expect(() => walletCheckoutUrl("javascript:alert(1)", "en")).toThrow();
  });
});
