import { type Browser, type BrowserContext, devices, expect, type Page, type TestInfo } from "@playwright/test";
import { LOCALES, type Locale } from "../../../lib/web/i18n/locale";
import { expectAccessible, screenshot, watchConsole } from "./pages";

/**
 * One checkout state as the payer sees it, in every language: on a desktop browser at 1280 px
 * (a mouse, the "Pay with wallet" button, the QR open) and on a phone at 375 px (touch, a phone's
 * user agent, no wallet in its browser: "Open in MetaMask", the QR folded), each in both themes,
 * each screenshot checked with axe.
 */

// Debian's chromium plays the phone: Playwright's descriptor names webkit only as its default engine.
const { defaultBrowserType: _engine, ...IPHONE_SE } = devices["iPhone SE (3rd gen)"];
export const PHONE = IPHONE_SE;
const DESKTOP = { viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] };

export interface StatePages {
  desktop: Page;
  phone: Page;
  /** Every console error and 404 of both pages, asserted empty at the end. */
  assertClean: () => void;
  close: () => Promise<void>;
}

/** Both devices, each set up first by `prepare` (a route, a clock). */
export async function openState(browser: Browser, prepare?: (context: BrowserContext) => Promise<unknown>): Promise<StatePages> {
  const contexts = [await browser.newContext(DESKTOP), await browser.newContext(PHONE)];
  const missing: string[] = [];
  const [desktop, phone] = await Promise.all(
    contexts.map(async (context) => {
      await prepare?.(context);
      const page = await context.newPage();
      page.on("response", (r) => r.status() === 404 && missing.push(`${r.request().resourceType()} ${r.url()}`));
      return page;
    }),
  );
  if (!desktop || !phone) throw new Error("two pages expected");
  const logs = [watchConsole(desktop), watchConsole(phone)];
  return {
    desktop,
    phone,
    assertClean: () => {
      expect(missing, "resources not found").toEqual([]);
      for (const log of logs) log.assertClean();
    },
    close: async () => {
      for (const context of contexts) await context.close();
    },
  };
}

/** Axe would otherwise measure colours mid-transition after the theme class changes. */
async function settle(page: Page) {
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  await page.mouse.move(0, 0);
}

async function fitsThePhone(page: Page, label: string) {
  const overflow = await page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && getComputedStyle(el).position !== "fixed")
      .filter((el, _, all) => !all.some((other) => other !== el && el.contains(other)))
      .slice(0, 3)
      .map((el) => `${el.tagName}.${String(el.className).slice(0, 60)}`),
  );
  expect(overflow, `${label} fits 375 px`).toEqual([]);
}

/**
 * The state at `path` in each language (or in `languages`, English first): the desktop through the
 * language switcher, the phone opened in that language. `check` runs on both pages before they are
 * shot (what must show).
 */
export async function everyLanguage(
  pages: StatePages,
  path: string,
  state: string,
  testInfo: TestInfo,
  check?: (page: Page, device: "desktop" | "phone", lang: Locale) => Promise<void>,
  languages: readonly Locale[] = LOCALES,
) {
  const { desktop, phone } = pages;
  await desktop.goto(`${path}?lang=en`);
  for (const lang of languages) {
    if (lang !== "en") {
      await desktop.getByRole("combobox").selectOption(lang);
      await expect(desktop).toHaveURL(new RegExp(`lang=${lang}`));
    }
    await phone.goto(`${path}?lang=${lang}`);
    for (const [device, page, width] of [
      ["desktop", desktop, 1280],
      ["phone", phone, 375],
    ] as const) {
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await check?.(page, device, lang);
      await settle(page);
      for (const theme of ["light", "dark"] as const) {
        await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
        const label = `checkout ${state} ${lang} ${width} px (${theme})`;
        await expectAccessible(page, label);
        if (device === "phone") await fitsThePhone(page, label);
        await screenshot(page, testInfo, `trust-${state}-${width}-${lang}-${theme}`);
      }
      await page.evaluate(() => document.documentElement.classList.remove("dark"));
    }
  }
}
