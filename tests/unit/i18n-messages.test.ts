import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CopyButton } from "@/components/checkout/copy-button";
import { CHECKOUT_MESSAGES } from "@/lib/web/i18n/checkout-messages";
import { chineseGlyphs, intlDateText, isCjk } from "@/lib/web/i18n/cjk-font/glyphs";
import { LOCALES, type Locale } from "@/lib/web/i18n/locale";
import { woff2Characters } from "../helpers/woff2-cmap";

/** The visible text of a rendered element: tags and their attributes dropped. */
const visibleText = (html: string) => html.replace(/<[^>]*>/g, "").trim();

/** Each language's own whole words for the button, as a native speaker writes them. */
const COPY_WORDS: Record<Locale, [copy: string, copied: string]> = {
  en: ["Copy", "Copied"],
  zh: ["复制", "已复制"],
  vi: ["Sao chép", "Đã sao chép"],
  ru: ["Копировать", "Скопировано"],
  tr: ["Kopyala", "Kopyalandı"],
  es: ["Copiar", "Copiado"],
};

describe("the copy buttons' words", () => {
  it.each(LOCALES)("%s: the button shows the language's whole 'Copy' and is named for what it copies", (locale) => {
    const t = CHECKOUT_MESSAGES[locale];
    expect([t.copy, t.copied]).toEqual(COPY_WORDS[locale]);
    for (const label of [t.copyAddress, t.copyAmount]) {
      const html = renderToStaticMarkup(createElement(CopyButton, { value: "0xabc", label, t }));
      // Exactly the message: the old label.split(" ")[0] showed "Sao" (vi), "Adresi" / "Tutarı" (tr).
      expect(visibleText(html)).toBe(COPY_WORDS[locale][0]);
      expect(html).toContain(`aria-label="${label}"`);
      // Its name holds the visible word (WCAG 2.5.3, axe's label-content-name-mismatch).
      expect(label.toLocaleLowerCase(locale)).toContain(COPY_WORDS[locale][0].toLocaleLowerCase(locale));
    }
  });
  // "Copied" after a click is checked in every language by tests/e2e/checkout-trust.spec.ts.
});

/** Every catalogue module under lib/web/i18n (the font's own tooling aside). */
function catalogueFiles(dir = "lib/web/i18n"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "cjk-font" ? [] : catalogueFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every Chinese string of every catalogue: any export named zh, or any export with a zh entry. */
async function chineseMessages(): Promise<string[]> {
  const modules: Record<string, unknown>[] = await Promise.all(catalogueFiles().map((file) => import(resolve(file))));
  const strings = (value: unknown): string[] =>
    typeof value === "string" ? [value] : value && typeof value === "object" ? Object.values(value).flatMap(strings) : [];
  return modules.flatMap((exports) =>
    Object.entries(exports).flatMap(([name, value]) =>
      name === "zh" ? strings(value) : value && typeof value === "object" && "zh" in value ? strings((value as { zh: unknown }).zh) : [],
    ),
  );
}

describe("the shipped Chinese font subset", () => {
  const glyphs = readFileSync("lib/web/i18n/cjk-font/glyphs.txt", "utf8").trim();

  it("covers every Chinese string a payer can see: checkout, refund claim, payment link, switcher, Intl dates", async () => {
    const messages = await chineseMessages();
    // The catalogues this walk must find, so it cannot pass by finding nothing.
    for (const sample of ["已复制", "退款", "简体中文", "此付款链接已停用"]) expect(messages).toContain(sample);
    const covered = new Set(glyphs);
    const missing = [...new Set([...messages.join(""), ...intlDateText()].filter(isCjk))].filter((c) => !covered.has(c));
    expect(missing, "rerun lib/web/i18n/cjk-font/make-subset.sh").toEqual([]);
  });

  it("is what make-subset.sh writes from today's sources (else rerun it)", () => {
    expect(glyphs).toBe(chineseGlyphs());
  });

  it.each([400, 700])("the %i weight maps exactly glyphs.txt's characters (else rerun make-subset.sh)", (weight) => {
    const font = readFileSync(`public/fonts/bsc-pay-sc-${weight}.woff2`);
    const mapped = [...woff2Characters(font)].map((c) => String.fromCodePoint(c)).join("");
    expect(mapped).toBe(glyphs);
    expect(font.length).toBeLessThan(80_000);
  });
});
