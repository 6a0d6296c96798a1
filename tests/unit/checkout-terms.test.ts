import { describe, expect, it } from "vitest";
import { percentOfBps } from "@/lib/web/checkout/fiat-display";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { fill, formatDecimal, LOCALES } from "@/lib/web/i18n/locale";

/**
 * The checkout's terms: a fiat-priced payment whose domain accepts a shortfall
 * says how much, in the payer's language and number format; the page shows the line only above 0.
 */
describe("the under-payment terms on the checkout page", () => {
  it.each([
    [50, "0.5"],
    [100, "1"],
    [25, "0.25"],
    [1, "0.01"],
    [1000, "10"],
    [150, "1.5"],
  ])("%i bps reads as %s %%", (bps, percent) => {
    expect(percentOfBps(bps)).toBe(percent);
  });

  it.each([
    ["en", "Payments up to 0.5% short of the price are accepted."],
    ["zh", "付款金额少于价格时，差额在 0.5% 以内仍会被接收。"],
    ["vi", "Khoản thanh toán thiếu tối đa 0,5% so với giá vẫn được chấp nhận."],
    ["ru", "Платёж меньше цены не более чем на 0,5 % тоже принимается."],
    ["tr", "Fiyatın en fazla %0,5 altında kalan ödemeler de kabul edilir."],
    ["es", "Se aceptan pagos de hasta un 0,5 % menos que el precio."],
  ] as const)("in %s: %s", (locale, text) => {
    expect(LOCALES).toContain(locale);
    expect(fill(CHECKOUT_MESSAGES[locale].underpayTerms, { percent: formatDecimal(percentOfBps(50), locale) })).toBe(text);
  });
});
