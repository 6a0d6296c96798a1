/**
 * The checkout page's languages. A small dictionary (lib/web/i18n/checkout-messages.ts) rather than
 * next-intl: one page of ~50 strings does not need locale routing, middleware or message loading,
 * and the page stays one server render plus one client component.
 */

export const LOCALES = ["en", "zh", "vi", "ru", "tr", "es"] as const;
export type Locale = (typeof LOCALES)[number];

/** Names in their own language, for the switcher. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  zh: "简体中文",
  vi: "Tiếng Việt",
  ru: "Русский",
  tr: "Türkçe",
  es: "Español",
};

/** BCP 47 tags for Intl formatting. */
export const INTL_TAGS: Record<Locale, string> = { en: "en-US", zh: "zh-CN", vi: "vi-VN", ru: "ru-RU", tr: "tr-TR", es: "es-ES" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language to show: an explicit choice (?lang=, then the cookie), else the best match of
 * Accept-Language by its q-weights (zh-TW and zh-HK fall back to simplified Chinese), else English.
 */
export function negotiateLocale(choice: { query?: string | null; cookie?: string | null; acceptLanguage?: string | null }): Locale {
  if (isLocale(choice.query)) return choice.query;
  if (isLocale(choice.cookie)) return choice.cookie;
  const ranked = (choice.acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: (tag ?? "").toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const primary = tag.split("-")[0];
    if (isLocale(primary)) return primary;
  }
  return "en";
}

export interface NumberSymbols {
  group: string;
  decimal: string;
}

/**
 * The locale's grouping and decimal marks. Read once on the server and handed to the page, so the
 * browser (whose ICU may differ from Node's) renders the very same text when it hydrates.
 */
export function numberSymbols(locale: Locale): NumberSymbols {
  const parts = new Intl.NumberFormat(INTL_TAGS[locale], { useGrouping: "always" } as Intl.NumberFormatOptions).formatToParts(11111.5);
  return { group: parts.find((p) => p.type === "group")?.value ?? ",", decimal: parts.find((p) => p.type === "decimal")?.value ?? "." };
}

/**
 * A decimal string with the locale's grouping and decimal mark, without ever becoming a float
 * ("1234567.25" → "1.234.567,25" in Spanish).
 */
export function formatDecimal(value: string, symbols: NumberSymbols | Locale): string {
  const { group, decimal } = typeof symbols === "string" ? numberSymbols(symbols) : symbols;
  const [whole = "0", fraction] = value.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return fraction ? `${grouped}${decimal}${fraction}` : grouped;
}

/**
 * "{name}" placeholders filled from `values`. A space left between two Chinese characters (a
 * template's "在 {network} 上" around "本地测试链") goes: Chinese spaces only around Latin words.
 */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template
    .replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match))
    .replace(/([\u3000-\u9fff\uff00-\uffef]) +(?=[\u3000-\u9fff\uff00-\uffef])/g, "$1");
}
