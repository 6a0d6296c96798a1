import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NetworkWarning } from "@/components/checkout/network-notice";
import { SwitchingToken } from "@/components/checkout/switching-token";
import { TokenPicker, type TokenPickerProps } from "@/components/checkout/token-picker";
import type { CheckoutView } from "@/lib/web/checkout/checkout-view";
import { displayRate, fiatShare, tokensStillOffered } from "@/lib/web/checkout/fiat-display";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { formatDecimal, LOCALES } from "@/lib/web/i18n/locale";

describe("displayRate: a quote's rate as the payer reads it, 2 to 4 decimals", () => {
  it.each([
    ["1.00000000", "1.00"],
    ["0.99950000", "0.9995"],
    ["0.99951234", "0.9995"],
    ["0.99956789", "0.9996"],
    ["0.99999999", "1.00"],
    ["1.10000000", "1.10"],
    ["600.00000000", "600.00"],
    ["612.34567890", "612.3457"],
    ["155.20000000", "155.20"],
    ["155.00000000", "155.00"],
    ["1", "1.00"],
    ["0.00001234", "0.00001234"],
  ])("%s → %s", (rate, shown) => {
    expect(displayRate(rate)).toBe(shown);
    expect(shown.split(".")[1]!.length).toBeGreaterThanOrEqual(2);
  });
});

describe("fiatShare: what is left of a price, in its money, rounded up", () => {
  it.each([
    ["25.00", "7500000000000000000", "10000000000000000000", "18.75"],
    ["25.00", "1", "3", "8.34"],
    ["25.00", "0", "10", "0.00"],
    ["2500", "1", "3", "834"],
    ["25.00", "10", "10", "25.00"],
  ])("%s × %s / %s → %s", (price, part, whole, shown) => {
    expect(fiatShare(price, part, whole)).toBe(shown);
  });
});

describe("tokensStillOffered: what the wrong-token warning names", () => {
  const fiat = { quotes: [{ token: "USDT" }, { token: "USDC" }, { token: "BNB" }] };
  it("every quoted token until something arrives, then only the token paid; a token-priced session its one token", () => {
    expect(tokensStillOffered({ token: "USDC", fiat }, false)).toEqual(["USDT", "USDC", "BNB"]);
    expect(tokensStillOffered({ token: "USDC", fiat }, true)).toEqual(["USDC"]);
    expect(tokensStillOffered({ token: "DUSD", fiat: null }, true)).toBeUndefined();
  });
});

const USDT = "0x55d398326f99059fF775485246999027B3197955";
const USDC = "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d";
const quote = (token: string, tokenId: number, tokenAddress: string, amount: string, rate: string, offPeg = false) => ({
  tokenId,
  token,
  tokenAddress,
  decimals: 18,
  amount,
  amountUnits: "0",
  rate,
  offPeg,
  quoteExpiresAt: "2026-01-01T00:15:00.000Z",
});
const view = {
  sessionId: "6f1c2b9e-2a51-4c4b-9d6e-3f1a2b3c4d5e",
  amount: "1250",
  token: "USDC",
  tokenAddress: USDC,
  fiat: {
    currency: "USD",
    fiatAmount: "1250.00",
    tokenChosen: true,
    quotes: [quote("USDT", 1, USDT, "1250", "1.00000000"), quote("USDC", 2, USDC, "1250.625312", "0.99950000", true)],
  },
} as TokenPickerProps["view"];

function render(props: Partial<TokenPickerProps> = {}, locale: (typeof LOCALES)[number] = "en") {
  return renderToStaticMarkup(
    createElement(TokenPicker, {
      view,
      t: CHECKOUT_MESSAGES[locale],
      amount: (value: string) => formatDecimal(value, locale),
      onChoosing: (_: string | null) => undefined,
      onChosen: (_: CheckoutView) => undefined,
      ...props,
    }),
  );
}

describe("the token picker", () => {
  it("is a radio group named by its label, one radio per quote, the token asked for now checked", () => {
    const html = render();
    const labelId = html.match(/<p id="([^"]+)"[^>]*>Pay with<\/p>/)?.[1];
    expect(labelId).toBeTruthy();
    expect(html).toContain(`role="radiogroup" aria-labelledby="${labelId}"`);
    const radios = [...html.matchAll(/<input[^>]*type="radio"[^>]*>/g)].map((m) => m[0]);
    expect(radios).toHaveLength(2);
    expect(radios.filter((r) => /checked=""/.test(r))).toEqual([expect.stringContaining('value="2"')]);
    // Every radio is named by its card (label[for]) and described by its rate line.
    for (const radio of radios) {
      const id = radio.match(/id="([^"]+)"/)?.[1];
      expect(html).toContain(`for="${id}"`);
      expect(html).toContain(`id="${id}-detail"`);
    }
  });

  it("shows each token's exact amount, its rate in the price's currency, and the off-peg notice only where it applies", () => {
    const html = render();
    // The amount may wrap between its digits, never off its symbol (a no-break space joins them).
    const amounts = [...html.matchAll(/data-testid="option-amount">(.*?)<\/span><\/span>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
    expect(amounts).toEqual(["1,250\u00a0USDT", "1,250.625312\u00a0USDC"]);
    expect(html).toContain("1 USDT = 1.00 USD");
    expect(html).toContain("1 USDC = 0.9995 USD");
    expect(html.match(/data-testid="off-peg"/g)).toHaveLength(1);
    expect(html).toContain("USDC is trading off its peg");
  });

  it("says the rates are locked, with no countdown of its own: the page has one (the status block's)", () => {
    const html = render();
    expect(html).toContain("Rates locked until the payment expires");
    expect(html).not.toMatch(/\d+:\d\d/);
    for (const locale of LOCALES) expect(CHECKOUT_MESSAGES[locale].ratesLocked).not.toContain("{time}");
  });

  it.each(LOCALES)("%s: every string is filled (no placeholder left) and the rate uses the language's decimal mark", (locale) => {
    const html = render({}, locale);
    expect(html).not.toMatch(/\{[a-z]+\}/);
    expect(html).toContain(`1 USDC = ${formatDecimal("0.9995", locale)} USD`);
  });
});

describe("NetworkWarning: what pays the order, before the address", () => {
  const render = (props: Partial<Parameters<typeof NetworkWarning>[0]>, locale: keyof typeof CHECKOUT_MESSAGES = "en") =>
    renderToStaticMarkup(
      createElement(NetworkWarning, {
        token: "USDT",
        intlTag: locale === "en" ? "en" : locale,
        networkName: "BNB Smart Chain",
        t: CHECKOUT_MESSAGES[locale],
        ...props,
      }),
    );

  it("a session priced in a token names that token alone", () => {
    expect(render({})).toContain("Send only USDT on BNB Smart Chain.");
    expect(render({ offered: ["USDT"] })).toContain("Send only USDT on BNB Smart Chain.");
  });

  it("a session priced in money names every token it quoted, the asked one first, each once", () => {
    const html = render({ token: "USDC", offered: ["USDT", "USDC", "BNB", "USDT"] });
    expect(html).toContain("This order takes only USDC, USDT, or BNB on BNB Smart Chain.");
    expect(html).not.toContain("lost");
  });

  it.each(LOCALES)("%s: lists the tokens in the language's own way", (locale) => {
    const html = render({ token: "USDT", offered: ["USDT", "BNB"] }, locale);
    expect(html).toContain("USDT");
    expect(html).toContain("BNB");
    expect(html).not.toContain("{tokens}");
    expect(html).not.toContain("{network}");
  });
});

describe("SwitchingToken: between a click in the picker and the server's answer", () => {
  it.each(LOCALES)("%s: says which token is coming, busy, with nothing of the old token to copy or scan", (locale) => {
    const html = renderToStaticMarkup(createElement(SwitchingToken, { token: "USDT", t: CHECKOUT_MESSAGES[locale] }));
    expect(html).toContain('aria-busy="true"');
    expect(html).toMatch(/role="status"[^>]*>.*USDT/);
    expect(html).not.toMatch(/\{[a-z]+\}/);
    expect(html).not.toMatch(/<img|<button|data-copy-value|0x/);
  });
});
