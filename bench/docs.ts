/**
 * `npm run bench:docs` (`next start` on a fresh database, Debian's chromium): how soon the API
 * reference at /docs is usable — the first operation of its index on screen, counted from the
 * navigation's start — and how many bytes the page took, on the first visit (a server that has not
 * rendered it yet) and on later ones (a warm server, a fresh browser cache each time); then what
 * the full interactive reference costs once asked for. Goal: usable within 1 s on a warm server.
 * BENCH_VISITS (default 5) warm visits; BENCH_SKIP_BUILD=1 reuses the build.
 */

import { chromium, type Page } from "@playwright/test";
import { startBenchServer } from "./server";

const VISITS = Number(process.env.BENCH_VISITS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FIRST_OPERATION = "#createPayment";

interface Visit {
  visibleMs: number;
  bytes: number;
}

/** Bytes over the wire for the document and everything it loaded so far (same origin: transferSize is exact). */
const transferred = (page: Page) =>
  page.evaluate(() =>
    [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].reduce(
      (sum, entry) => sum + (entry as PerformanceResourceTiming).transferSize,
      0,
    ),
  );

async function visit(page: Page, url: string): Promise<Visit> {
  await page.goto(`${url}/docs`, { waitUntil: "commit" });
  await page.locator(FIRST_OPERATION).waitFor({ state: "visible" });
  const visibleMs = await page.evaluate(() => performance.now());
  await page.waitForLoadState("networkidle");
  return { visibleMs, bytes: await transferred(page) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main() {
  const server = await startBenchServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
  try {
    // Each visit in a fresh context: no browser cache, as a reader's first look.
    const fresh = async <T>(run: (page: Page) => Promise<T>) => {
      const context = await browser.newContext();
      try {
        return await run(await context.newPage());
      } finally {
        await context.close();
      }
    };
    const first = await fresh((page) => visit(page, server.url));
    const warm: Visit[] = [];
    for (let i = 0; i < VISITS; i++) warm.push(await fresh((page) => visit(page, server.url)));
    // The full reference (Scalar), on demand: from the click to its first operation on screen.
    const full = await fresh(async (page) => {
      const before = await visit(page, server.url);
      const started = await page.evaluate(() => performance.now());
      await page.getByRole("button", { name: "Load the full reference" }).click();
      await page.getByText("Get a session's status").nth(1).waitFor({ state: "visible", timeout: 60_000 });
      const shownMs = (await page.evaluate(() => performance.now())) - started;
      await page.waitForLoadState("networkidle");
      return { shownMs, bytes: (await transferred(page)) - before.bytes };
    });

    console.log(`/docs on a production server (next start), chromium, ${VISITS} warm visits`);
    console.log("| visit | first operation visible | bytes transferred |");
    console.log("|---|---|---|");
    console.log(`| first (server not warm) | ${ms(first.visibleMs)} | ${kb(first.bytes)} |`);
    console.log(`| warm, median | ${ms(median(warm.map((v) => v.visibleMs)))} | ${kb(median(warm.map((v) => v.bytes)))} |`);
    console.log(`| warm, slowest | ${ms(Math.max(...warm.map((v) => v.visibleMs)))} | ${kb(Math.max(...warm.map((v) => v.bytes)))} |`);
    console.log(`| full reference, on demand (click → first operation) | ${ms(full.shownMs)} | +${kb(full.bytes)} |`);
    const goal = median(warm.map((v) => v.visibleMs)) <= 1000;
    console.log(`\ngoal: the reference usable within 1 s on a warm server: ${goal ? "met" : "MISSED"}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
