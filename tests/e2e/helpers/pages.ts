import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { expect, type Page, type TestInfo } from "@playwright/test";

/**
 * Every page a test opens is watched: a React hydration error, an uncaught exception or any
 * console error fails the test.
 */
export function watchConsole(page: Page): { errors: string[]; ignore: (expected: RegExp) => void; assertClean: () => void } {
  const errors: string[] = [];
  const expected: RegExp[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !expected.some((e) => e.test(message.text()))) errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  return {
    errors,
    /** A console error the test causes on purpose (e.g. the status line of a 404 page). */
    ignore: (pattern) => expected.push(pattern),
    assertClean: () => expect(errors, "console errors (hydration mismatches included)").toEqual([]),
  };
}

// The axe-core that @axe-core/playwright itself depends on (the version package-lock.json pins).
const AXE_SOURCE = readFileSync(
  require.resolve("axe-core/axe.min.js", { paths: [dirname(require.resolve("@axe-core/playwright"))] }),
  "utf8",
);
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's WCAG 2.1 A/AA rules on every frame of the page as it is, violations only. Injected
 * once per document and run in place: @axe-core/playwright's builder re-injects and finishes each
 * run in a fresh page, ~1.5 s a call against ~0.1 s here, which matters for a spec that checks a
 * page in six languages, two devices and two themes.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const found: AxeViolation[] = [];
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    if (!(await frame.evaluate(() => "axe" in window))) await frame.evaluate(AXE_SOURCE);
    const violations = await frame.evaluate(
      (tags) =>
        (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe.run(
          document,
          { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"], iframes: false },
        ),
      AXE_TAGS,
    );
    found.push(...violations.violations);
  }
  return found;
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Every page renders per request (the CSP nonce), and Next.js streams a dynamic page's metadata
  // after its body: the <title> can land a moment after the content a test waited for. It must
  // land (this times out otherwise); axe then judges the page as a reader gets it.
  await page.waitForFunction(() => document.title.trim().length > 0, undefined, { timeout: 10_000 });
  const serious = (await axeViolations(page))
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join("; ")}`,
    );
  expect(serious, `accessibility of ${label}`).toEqual([]);
}

/** A full-page screenshot kept with the test's results (and attached to its report). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/**
 * axe and full-page screenshots in both themes (switched in place), at 1280 and 375 px; at 375 px
 * nothing on the page may stick out. axe runs at 1280 px, and at 375 px too with `axeOnPhone`
 * (the same DOM laid out again: worth it where the layout is what is being judged). Toasts are
 * waited out first: fading ones only confuse axe.
 */
export async function captureBothThemes(page: Page, testInfo: TestInfo, name: string, { axeOnPhone = false } = {}): Promise<void> {
  await page.mouse.move(0, 0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page, `${name} (${theme})`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, testInfo, `${name}-1280-${theme}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    if (axeOnPhone) await expectAccessible(page, `${name} at 375 px (${theme})`);
    await screenshot(page, testInfo, `${name}-375-${theme}`);
    const overflow = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((el) => el.getBoundingClientRect().right > 375.5 && getComputedStyle(el).position !== "fixed")
        // The innermost ones: what is too wide, not every box around it.
        .filter((el, _, all) => !all.some((other) => other !== el && el.contains(other)))
        .slice(0, 3)
        .map((el) => `${el.tagName}.${String(el.className).slice(0, 60)}`),
    );
    expect(overflow, `${name} fits 375 px`).toEqual([]);
    expect(await spillingOutOfCards(page), `${name} at 375 px: nothing sticks out of its card`).toEqual([]);
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * The innermost elements that reach past the right edge of their card, unless something between
 * them clips or scrolls (a table's scroll box): text that runs over a card's border fits the
 * viewport, so the 375 px check above does not see it.
 */
export function spillingOutOfCards(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const spills = (el: Element): boolean => {
      const card = el.closest("[data-slot=card]");
      if (!card || el === card) return false;
      for (let box = el.parentElement; box && box !== card; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== "visible") return false;
      }
      return el.getBoundingClientRect().right > card.getBoundingClientRect().right + 0.5;
    };
    return [...document.querySelectorAll("[data-slot=card] *")]
      .filter(spills)
      .filter((el, _, all) => !all.some((other) => other !== el && el.contains(other)))
      .slice(0, 3)
      .map((el) => `${el.tagName}.${String(el.className).slice(0, 60)} "${(el.textContent ?? "").slice(0, 40)}"`);
  });
}

export async function signUp(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL("**/dashboard");
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");
}
