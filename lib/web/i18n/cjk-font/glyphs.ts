/**
 * The characters "BSC Pay SC" (public/fonts/bsc-pay-sc-*.woff2) must hold: every CJK character
 * written anywhere in the app's source (app/, components/, lib/), so a new Chinese message —
 * checkout, refund claim, payment link or a catalogue that does not exist yet — is covered
 * without naming its file here, plus what Intl writes in zh-CN dates and times (年月日, 星期…,
 * 上午/下午), which no source file holds. ASCII and Latin come from the system font.
 *
 * `npx tsx lib/web/i18n/cjk-font/glyphs.ts` prints them (make-subset.sh writes them to glyphs.txt);
 * tests/unit/i18n-messages.test.ts holds glyphs.txt and the fonts to this very function.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const SOURCE_ROOTS = ["app", "components", "lib"];

/** CJK radicals onwards: ideographs, CJK and full-width punctuation (the font's unicode-range in globals.css). */
export function isCjk(char: string): boolean {
  return (char.codePointAt(0) ?? 0) >= 0x2e80;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Dates and times as zh-CN writes them in every style a page might ask for: each month, weekday
 * and hour, 24- and 12-hour. Time zone names are left out: they depend on where the payer is.
 */
export function intlDateText(): string {
  const dates = Array.from({ length: 24 }, (_, hour) => new Date(2026, hour % 12, 1 + (hour % 7), hour, 7));
  const styles: Intl.DateTimeFormatOptions[] = [];
  for (const dateStyle of ["full", "long", "medium", "short", undefined] as const) {
    for (const timeStyle of ["medium", "short", undefined] as const) {
      if (dateStyle || timeStyle) for (const hour12 of [undefined, true]) styles.push({ dateStyle, timeStyle, hour12 });
    }
  }
  return styles.map((style) => dates.map((date) => new Intl.DateTimeFormat("zh-CN", style).format(date)).join("")).join("");
}

/** The sorted, de-duplicated characters, as glyphs.txt holds them (one line). */
export function chineseGlyphs(root = "."): string {
  const text = SOURCE_ROOTS.flatMap((dir) => sourceFiles(join(root, dir)).map((file) => readFileSync(file, "utf8"))).join("");
  const chars = new Set([...text, ...intlDateText()].filter(isCjk));
  return [...chars].sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0)).join("");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) console.log(chineseGlyphs());
