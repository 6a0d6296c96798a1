import { type BrowserContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { apiMerchant, payDirectly } from "./helpers/merchant";
import { expectAccessible, screenshot, watchConsole } from "./helpers/pages";
import { injectWallet } from "./helpers/wallet";

/**
 * What tells the payer whom they pay and keeps their money safe (issue 24): the shop's host, the
 * description and order, the network chip and warning, the grouped address, the countdown, a
 * receipt, the payer's cancel, and the phone path without a browser wallet. Every state in every
 * language, at 375 and 1280 px, in both themes: one page load per state, then the language
 * switcher, the viewport and the theme class change in place.
 */
const LANGS = ["en", "zh", "vi", "ru", "tr", "es"] as const;
const DESCRIPTION = "2 × Flat white (oat milk)\n1 × Almond croissant — table 12, pick-up at the counter";

async function setTheme(page: Page, theme: "light" | "dark") {
  await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
}

/** Axe would otherwise measure colours mid-transition after the theme class changes. */
async function noTransitions(page: Page) {
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
}

async function everyLanguage(page: Page, state: string, testInfo: TestInfo) {
  await noTransitions(page);
  for (const lang of LANGS) {
    if (lang !== "en") {
      await page.getByRole("combobox").selectOption(lang);
      await expect(page).toHaveURL(new RegExp(`lang=${lang}`));
    }
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    if (state === "pending" || state === "partial") await expect(page.getByTestId("time-left")).toContainText(/\d+:\d\d/);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
      for (const theme of ["light", "dark"] as const) {
        await setTheme(page, theme);
        if (lang === "en" && width === 375) await expectAccessible(page, `checkout ${state} (${theme})`);
        await screenshot(page, testInfo, `trust-${state}-${width}-${lang}-${theme}`);
      }
      await setTheme(page, "light");
    }
  }
}

test("pending, partial, completed and expired in six languages, two widths, two themes: accessible, no console errors", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const logs = watchConsole(page);
  const missing: string[] = []; // names what a "Failed to load resource" console error was about
  page.on("response", (r) => r.status() === 404 && missing.push(`${r.request().resourceType()} ${r.url()}`));
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const [pending, partial, completed, expired] = await Promise.all([
    merchant.createPayment("1234.5", { description: DESCRIPTION, orderId: "ORD-10042" }),
    merchant.createPayment("10", { orderId: "ORD-10043" }),
    merchant.createPayment("5", { orderId: "ORD-10044", description: "Gift card" }),
    merchant.createPayment("7", { orderId: "ORD-10045" }),
  ]);
  await payDirectly(partial.depositAddress, "2.5");
  await payDirectly(completed.depositAddress, "5");
  await expect.poll(async () => (await merchant.status(partial.sessionId)).receivedAmount, { timeout: 20_000 }).toBe("2.5");
  await expect.poll(async () => (await merchant.status(completed.sessionId)).status, { timeout: 20_000 }).toBe("completed");

  // pending: whom, what, which network, the grouped address (copied plain), the countdown.
  await page.goto(`/pay/${pending.sessionId}?lang=en`);
  await expect(page.getByTestId("merchant")).toHaveText("Paying shop.example.com");
  await expect(page.getByTestId("description")).toHaveText(DESCRIPTION);
  await expect(page.getByTestId("order-id")).toHaveText("Order ORD-10042");
  await expect(page.getByTestId("network")).toContainText("Local test chain (BEP-20)");
  await expect(page.getByTestId("network")).toContainText("Test network — not real money");
  await expect(page.getByTestId("network-warning")).toContainText("Send only DUSD on Local test chain.");
  await expect(page.getByTestId("deposit-address")).toHaveText(pending.depositAddress);
  await expect(page.getByTestId("deposit-address").locator("span.font-bold")).toHaveText([
    pending.depositAddress.slice(2, 6),
    pending.depositAddress.slice(-4),
  ]);
  await expect(page.getByTestId("time-left")).toHaveAttribute("data-tone", "normal");
  await expect(page.getByTestId("expires-at")).toContainText(/Expires at \d/);
  await expect(page.getByRole("button", { name: "Copy address" })).toHaveText("Copy");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy address" }).click();
  await expect(page.getByRole("button", { name: "Copy address" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pending.depositAddress);
  await everyLanguage(page, "pending", testInfo);
  await expect(page.getByRole("button", { name: "Sao chép địa chỉ" })).toHaveCount(0); // the page is in Spanish now
  await expect(page.getByRole("button", { name: "Copiar dirección" })).toHaveText("Copiar");

  await page.goto(`/pay/${partial.sessionId}?lang=en`);
  await expect(page.getByTestId("partial")).toHaveText("Received 2.5 of 10 DUSD — send 7.5 more");
  await expect(page.getByRole("button", { name: "Cancel and return to the shop" })).toHaveCount(0); // money is in it
  await everyLanguage(page, "partial", testInfo);

  // completed: a receipt; no redirectUrl, so "Back to the shop" is the shop's own domain.
  await page.goto(`/pay/${completed.sessionId}?lang=en`);
  const receipt = page.getByTestId("receipt");
  await expect(receipt).toContainText("Payment received");
  await expect(receipt).toContainText("OrderORD-10044");
  await expect(receipt).toContainText(completed.sessionId);
  await expect(page.getByTestId("paid-at")).toHaveText(/\d/);
  // A local chain has no explorer to link to: the hash, shortened, whole in its title.
  await expect(page.getByTestId("tx-hash")).toHaveAttribute("title", /^0x[0-9a-f]{64}$/);
  await expect(page.getByTestId("tx-hash")).toHaveText(/^0x[0-9a-f]{8}…[0-9a-f]{8}$/);
  await expect(page.getByRole("link", { name: "Back to the shop" })).toHaveAttribute("href", "https://shop.example.com");
  await everyLanguage(page, "completed", testInfo);

  // expired: the server reports it once the time is up; the feed is made to say so now.
  await page.route(`**/api/checkout/${expired.sessionId}/events`, async (route) => {
    const view = (await (await request.get(`/api/checkout/${expired.sessionId}`)).json()).data;
    const body = `event: status\ndata: ${JSON.stringify({ ...view, status: "expired", head: null })}\n\n`;
    await route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body });
  });
  await page.goto(`/pay/${expired.sessionId}?lang=en`);
  await expect(page.getByRole("heading", { name: "This payment has expired" })).toBeVisible();
  await expect(page.getByText("Order ORD-10045")).toHaveCount(2); // under the amount and with the reference
  await everyLanguage(page, "expired", testInfo);
  expect(missing).toEqual([]);
  logs.assertClean();
});

test("the payer cancels: asked once more, then back to the redirectUrl, and the merchant sees it cancelled", async ({ page, request }) => {
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("3", { redirectUrl: "https://shop.example.com/cart" });
  await page.route("https://shop.example.com/**", (route) => route.fulfill({ body: "<h1>Cart</h1>", contentType: "text/html" }));
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await page.getByRole("button", { name: "Cancel and return to the shop" }).click();
  await expect(page.getByTestId("cancel-confirm")).toContainText("Cancel this payment?");
  await page.getByRole("button", { name: "Keep paying" }).click(); // changes nothing
  expect((await merchant.status(session.sessionId)).status).toBe("pending");
  await page.getByRole("button", { name: "Cancel and return to the shop" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await page.waitForURL("https://shop.example.com/cart");
  expect((await merchant.status(session.sessionId)).status).toBe("cancelled");
  // Once closed, there is nothing left to cancel: the page shows it, and the endpoint refuses.
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await expect(page.getByRole("heading", { name: "This payment was cancelled" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel and return to the shop" })).toHaveCount(0);
  const again = await request.post(`/api/checkout/${session.sessionId}/cancel`);
  expect(again.status()).toBe(400);
  expect((await again.json()).error.message).toBe("this payment is already cancelled; nothing changed");
  logs.assertClean();
});

async function phone(context: BrowserContext) {
  const page = await context.newPage();
  return { page, logs: watchConsole(page) };
}

test("a phone without a wallet gets buttons into MetaMask's and Trust Wallet's browsers, the EIP-681 link, and the QR folded away", async ({
  browser,
  baseURL,
}, testInfo) => {
  const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 800 } });
  const { page, logs } = await phone(context);
  const merchant = await apiMerchant(page.request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("12");
  // Four minutes left: the countdown turns amber.
  const { expiresAt } = (await (await page.request.get(`/api/checkout/${session.sessionId}`)).json()).data;
  await page.clock.install({ time: Date.parse(expiresAt) - 4 * 60_000 });
  await page.goto(`/pay/${session.sessionId}?lang=vi`);
  const wallets = page.getByTestId("mobile-wallets");
  await expect(wallets).toBeVisible();
  const host = new URL(baseURL ?? "").host;
  await expect(wallets.getByRole("link", { name: "Mở trong MetaMask" })).toHaveAttribute(
    "href",
    `https://metamask.app.link/dapp/${host}/pay/${session.sessionId}?lang=vi`,
  );
  await expect(wallets.getByRole("link", { name: "Mở trong Trust Wallet" })).toHaveAttribute(
    "href",
    `https://link.trustwallet.com/open_url?coin_id=20000714&url=${encodeURIComponent(`${baseURL}/pay/${session.sessionId}?lang=vi`)}`,
  );
  const paymentUri = await page.locator("img[data-payment-uri]").getAttribute("data-payment-uri");
  await expect(page.getByTestId("other-wallet")).toHaveAttribute("href", paymentUri ?? "missing");
  await expect(page.getByText("Không tìm thấy ví trình duyệt")).toHaveCount(0); // no "scan the QR" on the phone itself
  await expect(page.locator("img[data-payment-uri]")).toBeHidden();
  await expect(page.getByTestId("time-left")).toHaveAttribute("data-tone", "warning");
  await expectAccessible(page, "checkout on a phone");
  await screenshot(page, testInfo, "trust-mobile-375-vi");
  await page.getByText("Thanh toán từ thiết bị khác").click();
  await expect(page.locator("img[data-payment-uri]")).toBeVisible();
  await page.clock.fastForward(3.5 * 60_000); // under a minute: red
  await expect(page.getByTestId("time-left")).toHaveAttribute("data-tone", "danger");
  await screenshot(page, testInfo, "trust-mobile-375-vi-open");
  logs.assertClean();
  await context.close();

  // The same phone with a wallet injected (a wallet's own browser): the wallet button, no deep links.
  const inWallet = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 800 } });
  const walletPage = await inWallet.newPage();
  await injectWallet(walletPage, { account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
  await walletPage.goto(`/pay/${session.sessionId}?lang=en`);
  await expect(walletPage.getByRole("button", { name: "Pay 12 DUSD with Test Wallet" })).toBeVisible();
  await expect(walletPage.getByTestId("mobile-wallets")).toHaveCount(0);
  await expect(walletPage.locator("img[data-payment-uri]")).toBeVisible();
  await inWallet.close();
});

test("a desktop browser without a wallet keeps the QR open and says to scan it with a phone", async ({ page, request }) => {
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("2");
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await expect(page.getByText("Scan the QR code with the wallet app on your phone")).toBeVisible();
  await expect(page.locator("img[data-payment-uri]")).toBeVisible();
  await expect(page.getByTestId("mobile-wallets")).toHaveCount(0);
  logs.assertClean();
});
