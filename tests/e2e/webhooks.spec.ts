import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Locator, type Page, type TestInfo, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { totpCode, totpStep } from "../../lib/accounts/users/totp";
import { expectAccessible, screenshot, signUp, watchConsole } from "./helpers/pages";

/**
 * The webhook tools of /dashboard/domains against a real receiver in this process: the e2e
 * server runs on the `local` network only, so private (127.0.0.1) webhook targets are allowed.
 * Every state is captured in both themes at 1280 and 375 px and checked with axe.
 */

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** An HTTP receiver that records every request and answers `status` (200 until told otherwise). */
async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: flatHeaders(req.headers), body });
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "broken");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/bsc-pay`,
    received,
    answer: (code: number) => {
      status = code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const flatHeaders = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));

async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: text }).first()).toBeVisible({ timeout: 15_000 });
}

/** The page in both themes at desktop and phone widths (the theme class is set in place, so open dialogs stay open). */
async function captureStates(page: Page, testInfo: TestInfo, name: string) {
  // Toasts are asserted where they appear; fading ones only confuse axe's contrast check. A pointer
  // left over the toaster (the last click) pauses their timers, so it moves away first.
  await page.mouse.move(0, 0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  // The theme is switched in place: without this, axe would measure colours mid-transition.
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page, `${name} (${theme})`);
    // Full-page shots of a scrolled page would paint the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, testInfo, `webhooks-${name}-1280-${theme}`);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} fits 375 px`).toBeLessThanOrEqual(375);
    // The deliveries table too, Redeliver buttons included (its wrapper would scroll otherwise).
    for (const wrapper of await page.locator('[data-testid="webhooks"] table').locator("xpath=..").all()) {
      expect(await wrapper.evaluate((el) => el.scrollWidth - el.clientWidth), `${name}: deliveries table fits 375 px`).toBeLessThanOrEqual(
        0,
      );
    }
    await screenshot(page, testInfo, `webhooks-${name}-375-${theme}`);
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 1280, height: 900 });
}

const PASSWORD = "correct horse battery staple";

/**
 * Turns two-factor sign-in on in Settings (as a merchant does) and answers a fresh code per call:
 * each code works once, so each call takes the next step, waiting for the clock when it must.
 */
async function turnOnTwoFactor(page: Page): Promise<() => Promise<string>> {
  await page.goto("/dashboard/settings");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const key = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  const turnOn = page.getByRole("button", { name: "Turn on" });
  await page.locator("form").filter({ has: turnOn }).getByLabel("Current password").fill(PASSWORD);
  let last = totpStep() - 1;
  await page.getByLabel("Code from the app").fill(totpCode(key, last));
  await turnOn.click();
  await page.getByRole("button", { name: "I have stored them" }).click();
  return async () => {
    const step = Math.max(last + 1, totpStep() - 1);
    while (step > totpStep() + 1) await new Promise((resolve) => setTimeout(resolve, 1000));
    last = step;
    return totpCode(key, step);
  };
}

const rowOf = (card: Locator, state: string, eventType = "ping") =>
  card.locator(`tr[data-event-type="${eventType}"][data-state="${state}"]`);

test.use({ permissions: ["clipboard-read", "clipboard-write"], viewport: { width: 1280, height: 900 } });

test("a merchant sets up signed webhooks, sees the secret once, tests them, filters, redelivers, reveals and rotates the secret", async ({
  page,
}, testInfo) => {
  // Two-factor is turned on half-way (reveal and rotate need it), and each state is captured four times.
  test.setTimeout(360_000);
  const logs = watchConsole(page);
  const receiver = await startReceiver();
  try {
    await signUp(page, `hooks-${Date.now()}@example.com`, PASSWORD);
    await page.goto("/dashboard/domains");
    await page.getByLabel("Shop origin").fill("https://hooks.example.com");
    await page.getByRole("button", { name: "Add domain" }).click();
    await expectToast(page, "https://hooks.example.com whitelisted");
    const card = page.locator('[data-domain="https://hooks.example.com"]');
    const webhooks = card.getByTestId("webhooks");

    // No URL yet: what webhooks are, and no secret.
    await expect(webhooks).toContainText("No webhook URL yet");
    await expect(card.getByTestId("webhook-secret")).toHaveCount(0);
    await captureStates(page, testInfo, "1-no-url");

    // Saving a URL creates the secret: shown this once, with copy; afterwards the page knows only its hint.
    await card.getByLabel("Webhook URL").fill(receiver.url);
    await card.getByRole("button", { name: "Save changes" }).click();
    await expectToast(page, "Domain saved");
    const made = page.getByRole("dialog");
    await expect(made.getByTestId("webhook-secret-made")).toBeVisible();
    const secret = await made.getByLabel("Signing secret", { exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    await made.getByRole("button", { name: "Copy secret" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await captureStates(page, testInfo, "2-secret-made");
    await made.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const secretBox = card.getByTestId("webhook-secret");
    await expect(secretBox).toContainText(`whsec_…${secret.slice(-4)}`);
    expect(await page.content()).not.toContain(secret.slice(6));
    await expect(webhooks.getByTestId("no-deliveries")).toContainText("No deliveries yet");
    await captureStates(page, testInfo, "2-empty");
    // Without two-factor on, Reveal says to turn it on: the secret is never one stolen session away.
    await card.getByRole("button", { name: "Reveal" }).click();
    await expect(page.getByRole("dialog")).toContainText("Turn on two-factor authentication in Settings first");
    await expect(page.getByRole("dialog").getByRole("link", { name: "Turn on two-factor" })).toHaveAttribute("href", "/dashboard/settings");
    await captureStates(page, testInfo, "2-reveal-needs-two-factor");
    await page.getByRole("dialog").getByRole("button", { name: "Back" }).click();

    // A test event reaches the receiver, signed; the row turns delivered without a reload.
    await card.getByRole("button", { name: "Send test event" }).click();
    await expectToast(page, "Test event queued");
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    const first = receiver.received[0]!;
    expect(first.headers).toMatchObject({
      "webhook-id": expect.stringMatching(/^msg_/),
      "webhook-timestamp": expect.stringMatching(/^\d+$/),
      "webhook-signature": expect.stringMatching(/^v1,/),
    });
    expect(new Webhook(secret).verify(first.body, first.headers)).toMatchObject({
      type: "ping",
      data: { domain: "https://hooks.example.com" },
    });
    await expect(rowOf(card, "delivered")).toHaveCount(1, { timeout: 15_000 });
    await expect(rowOf(card, "delivered")).toContainText("HTTP 200");

    // A failing receiver: the row shows Retrying with the 500 (still without a reload).
    receiver.answer(500);
    await card.getByRole("button", { name: "Send test event" }).click();
    await expectToast(page, "Test event queued");
    await expect(rowOf(card, "retrying")).toHaveCount(1, { timeout: 15_000 });
    await expect(rowOf(card, "retrying")).toContainText("HTTP 500");
    await expect(rowOf(card, "retrying")).toContainText("next try");
    await expect(webhooks.getByRole("heading", { name: /1 retrying/ })).toBeVisible();
    // Its second attempt comes 5 s later (and fails too); the third only after 5 minutes, so the
    // rest of the test sees a steady list.
    const failingId = receiver.received[1]!.headers["webhook-id"];
    await expect.poll(() => receiver.received.filter((r) => r.headers["webhook-id"] === failingId).length, { timeout: 20_000 }).toBe(2);
    receiver.answer(200);
    await expect(rowOf(card, "retrying").locator("td").nth(3)).toHaveText("2", { timeout: 15_000 });
    // The payload, as the receiver got it.
    await rowOf(card, "retrying").getByRole("button", { name: "Show payload of ping" }).click();
    await expect(card.getByRole("region", { name: "Payload of ping" })).toContainText('"type": "ping"');
    await captureStates(page, testInfo, "3-delivered-and-retrying");

    // Status filters live in the URL.
    const filter = (name: string) =>
      webhooks.getByRole("navigation", { name: "Filter deliveries by status" }).getByRole("link", { name, exact: true });
    await filter("Delivered").click();
    await expect(page).toHaveURL(/wh=\d+&whStatus=delivered/);
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(1);
    await expect(rowOf(card, "delivered")).toHaveCount(1);
    await expect(filter("Delivered")).toHaveAttribute("aria-current", "page");
    await filter("Failed").click();
    await expect(page).toHaveURL(/whStatus=failed/);
    await expect(webhooks.getByTestId("no-deliveries")).toContainText("No failed deliveries");
    await captureStates(page, testInfo, "4-filter-empty");
    await filter("Pending").click();
    await expect(page).toHaveURL(/whStatus=pending/);
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(1);
    await expect(rowOf(card, "retrying")).toHaveCount(1);
    await filter("All").click();
    await expect(page).not.toHaveURL(/whStatus/);
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(2);

    // Redeliver: the same event again, with the same webhook-id.
    const firstId = first.headers["webhook-id"];
    await rowOf(card, "delivered")
      .getByRole("button", { name: /^Redeliver ping/ })
      .click();
    await expectToast(page, "ping queued again");
    await expect.poll(() => receiver.received.filter((r) => r.headers["webhook-id"] === firstId).length, { timeout: 15_000 }).toBe(2);
    await expect(rowOf(card, "delivered")).toHaveCount(1, { timeout: 15_000 });

    // With two-factor on, Reveal asks for a code and shows the secret until the dialog closes.
    const nextCode = await turnOnTwoFactor(page);
    await page.goto("/dashboard/domains");
    await card.getByRole("button", { name: "Reveal" }).click();
    const reveal = page.getByRole("dialog");
    await reveal.getByLabel("Two-factor code").fill("000000");
    await reveal.getByRole("button", { name: "Reveal secret" }).click();
    await expect(reveal.getByText(/that code is not right/i)).toBeVisible();
    await expect(reveal.getByTestId("webhook-secret-shown")).toHaveCount(0);
    await reveal.getByLabel("Two-factor code").fill(await nextCode());
    await reveal.getByRole("button", { name: "Reveal secret" }).click();
    await expect(reveal.getByTestId("webhook-secret-shown")).toBeVisible();
    expect(await reveal.getByLabel("Signing secret", { exact: true }).inputValue()).toBe(secret);
    await reveal.getByRole("button", { name: "Copy secret" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await captureStates(page, testInfo, "5-revealed");
    await reveal.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret.slice(6));

    // Rotation: confirmed with a code; the new secret is shown once, and both sign for 24 h.
    await card.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("For 24 hours the old one signs too");
    await captureStates(page, testInfo, "5-rotate-dialog");
    await dialog.getByLabel("Two-factor code").fill(await nextCode());
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog.getByTestId("webhook-secret-shown")).toBeVisible();
    const rotated = await dialog.getByLabel("New signing secret", { exact: true }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(secretBox).toContainText(`whsec_…${rotated.slice(-4)}`);
    await expect(card.getByTestId("secret-overlap")).toContainText("the previous secret also signs until");
    const seen = new Set(receiver.received.map((r) => r.headers["webhook-id"]));
    await card.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.filter((r) => !seen.has(r.headers["webhook-id"])).length, { timeout: 15_000 }).toBe(1);
    const afterRotation = receiver.received.find((r) => !seen.has(r.headers["webhook-id"]))!;
    expect(afterRotation.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(rotated).verify(afterRotation.body, afterRotation.headers)).toMatchObject({ type: "ping" });
    expect(new Webhook(secret).verify(afterRotation.body, afterRotation.headers)).toMatchObject({ type: "ping" });
    await expect(rowOf(card, "delivered")).toHaveCount(2, { timeout: 15_000 });
    await captureStates(page, testInfo, "6-rotated");

    // Pagination by cursor: ten a page, Older in the URL, Newer back to the newest ten.
    const domainId = Number(await card.getAttribute("data-domain-id"));
    const sameOrigin = { origin: new URL(page.url()).origin }; // cookie-authenticated API mutations must carry it (CSRF)
    const delivered = () => new Set(receiver.received.map((r) => r.headers["webhook-id"])).size;
    const before = delivered();
    // At most a few test events may wait for an endpoint at once (MAX_PENDING_PINGS): send them in twos.
    for (let i = 0; i < 9; i++) {
      expect((await page.request.post(`/api/user/domains/${domainId}/webhook-test`, { headers: sameOrigin })).status()).toBe(201);
      if (i % 2 === 1) await expect.poll(delivered, { timeout: 10_000 }).toBe(before + i + 1);
    }
    await expect.poll(delivered, { timeout: 20_000 }).toBe(12);
    await page.reload();
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(10);
    const newestTen = await card.locator("tr[data-delivery-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-delivery-id")));
    await webhooks.getByRole("link", { name: "Older deliveries" }).click();
    await expect(page).toHaveURL(/whAfter=/);
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(2);
    await expect(webhooks.getByRole("navigation", { name: "Deliveries pages" })).toContainText("Older deliveries");
    await captureStates(page, testInfo, "7-page-2");
    await webhooks.getByRole("link", { name: "Newer deliveries" }).click();
    await expect(page).toHaveURL(/whBefore=/);
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(10);
    expect(await card.locator("tr[data-delivery-id]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-delivery-id")))).toEqual(
      newestTen,
    );
    // An old page link and a made-up cursor open the newest page.
    await page.goto(`/dashboard/domains?wh=${domainId}&whPage=2&whAfter=bogus`);
    await expect(card.locator("tr[data-delivery-id]")).toHaveCount(10);

    // An error from the server reaches the merchant: the URL was cleared elsewhere meanwhile.
    const cleared = await page.request.patch(`/api/user/domains/${domainId}`, {
      headers: sameOrigin,
      data: { webhookUrl: null, code: await nextCode() },
    });
    expect(cleared.status(), await cleared.text()).toBe(200);
    await card.getByRole("button", { name: "Send test event" }).click();
    await expectToast(page, "Test event not sent");
    await expect(
      page
        .locator("[data-sonner-toast]")
        .filter({ hasText: "This domain has no webhook URL yet: save one on the Domains page first." })
        .first(),
    ).toBeVisible();
    await expect(webhooks).toContainText("No webhook URL yet");
    await expect(card.getByLabel("Webhook URL")).toHaveValue("");
    await captureStates(page, testInfo, "8-error");
    logs.assertClean();
  } finally {
    await receiver.close();
  }
});
