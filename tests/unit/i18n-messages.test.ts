import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CopyButton } from "@/components/checkout/copy-button";
import { CHECKOUT_MESSAGES } from "@/lib/i18n/checkout-messages";
import { INTL_TAGS, LOCALE_NAMES, LOCALES } from "@/lib/i18n/locale";

/** The visible text of a rendered element: tags and their attributes dropped. */
const visibleText = (html: string) => html.replace(/<[^>]*>/g, "").trim();

describe("the copy buttons' words", () => {
  it.each(LOCALES)("%s: the button says the language's whole 'Copy', named for what it copies", (locale) => {
    const t = CHECKOUT_MESSAGES[locale];
    for (const label of [t.copyAddress, t.copyAmount]) {
      const html = renderToStaticMarkup(createElement(CopyButton, { value: "0xabc", label, t }));
      const text = visibleText(html);
      expect(text).toBe(t.copy);
      expect(html).toContain(`aria-label="${label}"`);
      // Its name holds the visible word (WCAG 2.5.3, axe's label-content-name-mismatch).
      expect(label.toLocaleLowerCase(locale)).toContain(text.toLocaleLowerCase(locale));
      // The regression: "Sao" (vi), "Adresi" / "Tutarı" (tr) were the label's first word.
      expect(text).not.toBe(label.split(" ")[0] === t.copy ? "" : label.split(" ")[0]);
    }
  });

  it.each(LOCALES)("%s: 'Copy' and 'Copied' are whole messages of the language, not cut out of another", (locale) => {
    const t = CHECKOUT_MESSAGES[locale];
    const values = Object.values(t);
    for (const text of [t.copy, t.copied]) {
      expect(text.trim()).not.toBe("");
      expect(values).toContain(text);
      // A cut of a longer label (its first word, or any leading words) is not a message of its own unless it is exactly "Copy".
      for (const other of values) {
        const words = other.split(" ");
        for (let k = 1; k < words.length; k++) {
          const cut = words.slice(0, k).join(" ");
          if (cut === text) expect([t.copy, t.copied], `${locale}: "${text}" is the start of "${other}"`).toContain(cut);
        }
      }
    }
    expect(t.copied).not.toBe(t.copy);
    if (locale !== "en") expect([t.copy, t.copied]).not.toContain(CHECKOUT_MESSAGES.en.copy);
  });

  it("Vietnamese and Turkish no longer read 'Sao', 'Adresi' or 'Tutarı'", () => {
    expect([CHECKOUT_MESSAGES.vi.copy, CHECKOUT_MESSAGES.vi.copied]).toEqual(["Sao chép", "Đã sao chép"]);
    expect([CHECKOUT_MESSAGES.tr.copy, CHECKOUT_MESSAGES.tr.copied]).toEqual(["Kopyala", "Kopyalandı"]);
  });
});

describe("the shipped Chinese font subset", () => {
  it("holds every Chinese character the checkout shows (else rerun lib/i18n/cjk-font/make-subset.sh)", () => {
    const covered = new Set(readFileSync("lib/i18n/cjk-font/glyphs.txt", "utf8").replace(/\s/g, ""));
    // The receipt's and the countdown's dates and times are written by Intl in zh-CN.
    const dates = [0, 5, 13, 23]
      .map((hour) => new Date(2026, 10, 25, hour, 7))
      .flatMap((date) => [
        new Intl.DateTimeFormat(INTL_TAGS.zh, { dateStyle: "medium", timeStyle: "short" }).format(date),
        new Intl.DateTimeFormat(INTL_TAGS.zh, { timeStyle: "short" }).format(date),
      ]);
    const shown = [...Object.values(CHECKOUT_MESSAGES.zh).join(""), ...LOCALE_NAMES.zh, ...dates.join("")].filter(
      (c) => (c.codePointAt(0) ?? 0) >= 0x2e80,
    );
    expect(shown.filter((c) => !covered.has(c))).toEqual([]);
    for (const weight of [400, 700]) {
      const font = readFileSync(`public/fonts/bsc-pay-sc-${weight}.woff2`);
      expect(font.subarray(0, 4).toString("latin1")).toBe("wOF2");
      expect(font.length).toBeLessThan(80_000);
    }
  });
});
