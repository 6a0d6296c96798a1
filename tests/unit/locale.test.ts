import { describe, expect, it } from "vitest";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { fill, formatDecimal, LOCALES, negotiateLocale, numberSymbols } from "@/lib/web/i18n/locale";

describe("checkout languages", () => {
  it.each([
    [{ acceptLanguage: "vi-VN,vi;q=0.9,en;q=0.5" }, "vi"],
    [{ acceptLanguage: "de-DE,de;q=0.9,es;q=0.8,en;q=0.7" }, "es"],
    [{ acceptLanguage: "zh-TW,zh;q=0.9" }, "zh"],
    [{ acceptLanguage: "en;q=0.3, ru;q=0.8" }, "ru"],
    [{ acceptLanguage: "fr-FR, de" }, "en"],
    [{ acceptLanguage: "tr;q=0, es" }, "es"],
    [{ acceptLanguage: "" }, "en"],
    [{ acceptLanguage: "ru", cookie: "tr" }, "tr"],
    [{ acceptLanguage: "ru", cookie: "tr", query: "zh" }, "zh"],
    [{ acceptLanguage: "ru", query: "xx" }, "ru"],
  ] as const)("%j → %s", (choice, locale) => {
    expect(negotiateLocale(choice)).toBe(locale);
  });

  it("formats decimal strings per locale without floats, even beyond float precision", () => {
    expect(formatDecimal("1234567.25", "en")).toBe("1,234,567.25");
    expect(formatDecimal("1234567.25", "es")).toBe("1.234.567,25");
    expect(formatDecimal("1234567.25", "ru")).toBe(`1${numberSymbols("ru").group}234${numberSymbols("ru").group}567,25`);
    expect(formatDecimal("123456789012345678901234.000000000000000001", "en")).toBe("123,456,789,012,345,678,901,234.000000000000000001");
    expect(formatDecimal("0.5", "tr")).toBe("0,5");
  });

  it("has every message in every language, with the same placeholders", () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      expect(Object.keys(CHECKOUT_MESSAGES[locale]).sort()).toEqual(Object.keys(CHECKOUT_MESSAGES.en).sort());
      for (const [key, text] of Object.entries(CHECKOUT_MESSAGES.en)) {
        expect([locale, key, placeholders(CHECKOUT_MESSAGES[locale][key as keyof typeof CHECKOUT_MESSAGES.en])]).toEqual([
          locale,
          key,
          placeholders(text),
        ]);
      }
    }
    expect(fill(CHECKOUT_MESSAGES.en.partial, { received: "4", amount: "10", token: "USDT", remaining: "6" })).toBe(
      "Received 4 of 10 USDT — send 6 more",
    );
  });

  it("writes Chinese without spaces between Chinese words, keeping them around Latin ones", () => {
    const zh = CHECKOUT_MESSAGES.zh;
    expect(fill(zh.networkWarning, { network: zh.networkLocal, token: "USDT" })).toBe(
      "只能在本地测试链上发送 USDT。通过其他网络发送的资产或其他代币都将丢失。",
    );
    expect(fill(zh.networkWarning, { network: zh.networkBsc, token: "USDT" })).toMatch(/^只能在 BNB 智能链上发送 USDT。/);
    expect(fill(zh.payingTo, { shop: "shop.example.com" })).toBe("向 shop.example.com 付款");
    expect(fill("Send {a} {b}", { a: "x", b: "y" })).toBe("Send x y");
  });

  it("starts the countdown with a capital in every language (it stands alone as a line)", () => {
    for (const locale of LOCALES) {
      const line = fill(CHECKOUT_MESSAGES[locale].timeLeft, { time: "4:00" });
      expect(line.charAt(0), locale).toBe(line.charAt(0).toLocaleUpperCase());
    }
  });
});
