import { type APIRequestContext, type BrowserContext, expect, test } from "@playwright/test";
import { CHECKOUT_MESSAGES } from "../../lib/web/i18n/checkout-messages";
import { LOCALES } from "../../lib/web/i18n/locale";
import { everyLanguage, openState, PHONE, type StatePages } from "./helpers/checkout-states";
import { apiMerchant, payDirectly } from "./helpers/merchant";
import { axeViolations, watchConsole } from "./helpers/pages";
import { injectWallet } from "./helpers/wallet";

/**
 * What tells the payer whom they pay and keeps their money safe: the shop's host, the
 * description and order, the network chip and warning, the grouped address, the countdown (amber
 * under 5 minutes, red under 1), a receipt, the closed states, the payer's cancel, and the phone
 * path without a browser wallet. Pending, partial, completed and expired in every language (the
 * countdown's colours and cancelled in a few scripts), on a desktop at 1280 px and on a phone at
 * 375 px, in both themes, each through axe; no console error anywhere.
 */
const DESCRIPTION = "2 × Flat white (oat milk)\n1 × Almond croissant — table 12, pick-up at the counter";

let api: APIRequestContext;
let merchant: Awaited<ReturnType<typeof apiMerchant>>;
let sessions: Record<"pending" | "partial" | "completed" | "expired" | "cancelled", { sessionId: string; depositAddress: `0x${string}` }>;

test.beforeAll(async ({ playwright }, testInfo) => {
  api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  merchant = await apiMerchant(api, ["https://shop.example.com"]);
  const [pending, partial, completed, expired, cancelled] = await Promise.all([
    merchant.createPayment("1234.5", { description: DESCRIPTION, orderId: "ORD-10042" }),
    merchant.createPayment("10", { orderId: "ORD-10043" }),
    merchant.createPayment("5", { orderId: "ORD-10044", description: "Gift card" }),
    // A redirectUrl is the shop's "paid" page: a closed payment must not lead there.
    merchant.createPayment("7", { orderId: "ORD-10045", redirectUrl: "https://shop.example.com/thanks" }),
    merchant.createPayment("8", { orderId: "ORD-10046", redirectUrl: "https://shop.example.com/thanks" }),
  ]);
  sessions = { pending, partial, completed, expired, cancelled };
  await api.post(`/api/v1/payment/${cancelled.sessionId}/cancel`, { headers: { "x-api-key": merchant.key } });
  await payDirectly(partial.depositAddress, "2.5");
  await payDirectly(completed.depositAddress, "5");
  await expect.poll(async () => (await merchant.status(partial.sessionId)).receivedAmount, { timeout: 20_000 }).toBe("2.5");
  await expect.poll(async () => (await merchant.status(completed.sessionId)).status, { timeout: 20_000 }).toBe("completed");
});

test.afterAll(async () => api.dispose());

test("the axe check finds what it must: a contrast failure and an unnamed button, in the page and in a frame", async ({ page }) => {
  await page.goto(`/pay/${sessions.pending.sessionId}?lang=en`);
  const broken = `<p style="color:#777;background:#888">faint</p><button type="button"><svg width="8" height="8"></svg></button>`;
  await page.evaluate((html) => document.body.insertAdjacentHTML("beforeend", html), broken);
  await page.evaluate((html) => {
    const frame = document.createElement("iframe");
    frame.srcdoc = `<!doctype html><html lang="en"><title>t</title><body>${html}</body></html>`;
    document.body.append(frame);
  }, broken);
  await expect.poll(() => page.frames().length).toBe(2);
  await page.frames()[1]?.waitForLoadState();
  const ids = (await axeViolations(page)).map((v) => v.id);
  expect(ids.filter((id) => id === "color-contrast")).toHaveLength(2);
  expect(ids.filter((id) => id === "button-name")).toHaveLength(2);
});

/** Runs one state on both devices and closes them, whatever happens. */
async function onBothDevices(open: Promise<StatePages>, run: (pages: StatePages) => Promise<void>) {
  const pages = await open;
  try {
    await run(pages);
    pages.assertClean();
  } finally {
    await pages.close();
  }
}

const pay = (id: string) => `/pay/${id}`;

test("pending: whom, what, which network, the grouped address, the countdown; the phone's path; 'Copy' and 'Copied' whole in each language", async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const { sessionId, depositAddress } = sessions.pending;
  await onBothDevices(openState(browser), async (pages) => {
    const { desktop } = pages;
    await desktop.goto(`${pay(sessionId)}?lang=en`);
    await expect(desktop.getByTestId("merchant")).toHaveText("Paying shop.example.com");
    await expect(desktop.getByTestId("description")).toHaveText(DESCRIPTION);
    await expect(desktop.getByTestId("order-id")).toHaveText("Order ORD-10042");
    await expect(desktop.getByTestId("network")).toContainText("Local test chain (BEP-20)");
    await expect(desktop.getByTestId("network")).toContainText("Test network — not real money");
    await expect(desktop.getByTestId("network-warning")).toContainText("Send only DUSD on Local test chain.");
    await expect(desktop.getByTestId("deposit-address")).toHaveText(depositAddress);
    await expect(desktop.getByTestId("deposit-address").locator("span.font-bold")).toHaveText([
      depositAddress.slice(2, 6),
      depositAddress.slice(-4),
    ]);
    await expect(desktop.getByTestId("time-left")).toHaveAttribute("data-tone", "normal");
    // The time alone on the day it expires; with its date when that is another day (a run near midnight).
    await expect(desktop.getByTestId("expires-at")).toHaveText(
      /^Expires at (\d{1,2}:\d\d\s[AP]M|[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M)$/,
    );
    await everyLanguage(pages, pay(sessionId), "pending", testInfo, async (page, device, lang) => {
      const t = CHECKOUT_MESSAGES[lang];
      await expect(page.getByTestId("time-left")).toContainText(/\d+:\d\d/);
      // The phone shows the phone's path, the desktop the wallet button and the QR.
      await expect(page.getByTestId("mobile-wallets")).toHaveCount(device === "phone" ? 1 : 0);
      await expect(page.locator("img[data-payment-uri]")).toBeVisible({ visible: device === "desktop" });
      await expect(page.getByRole("button", { name: t.copyAddress, exact: true })).toHaveText(t.copy);
    });
    // "Copied" after a click: the language's whole word, and the address itself on the clipboard.
    for (const lang of LOCALES) {
      const t = CHECKOUT_MESSAGES[lang];
      await desktop.goto(`${pay(sessionId)}?lang=${lang}`);
      await desktop.getByRole("button", { name: t.copyAddress, exact: true }).click();
      await expect(desktop.getByRole("button", { name: `${t.copyAddress}: ${t.copied}` })).toHaveText(t.copied);
      expect(await desktop.evaluate(() => navigator.clipboard.readText())).toBe(depositAddress);
    }
  });
});

for (const [state, minutesLeft, tone] of [
  ["amber", 4, "warning"],
  ["red", 0.5, "danger"],
] as const) {
  // Only the countdown's colour differs from pending, which is shot in every language: two
  // languages (a Latin and the Chinese script) cover its contrast and its fit.
  test(`the countdown ${state} (${minutesLeft} min left) in English and Chinese on both devices and themes`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const { sessionId } = sessions.pending;
    const { expiresAt } = (await (await api.get(`/api/checkout/${sessionId}`)).json()).data;
    const at = Date.parse(expiresAt) - minutesLeft * 60_000;
    await onBothDevices(
      openState(browser, (context) => context.clock.setFixedTime(at)),
      (pages) =>
        everyLanguage(
          pages,
          pay(sessionId),
          state,
          testInfo,
          async (page) => {
            await expect(page.getByTestId("time-left")).toHaveAttribute("data-tone", tone);
          },
          ["en", "zh"],
        ),
    );
  });
}

test("partial: what arrived and what is left; no cancel once money is in", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  await onBothDevices(openState(browser), (pages) =>
    everyLanguage(pages, pay(sessions.partial.sessionId), "partial", testInfo, async (page, _, lang) => {
      if (lang === "en") await expect(page.getByTestId("partial")).toHaveText("Received 2.5 of 10 DUSD — send 7.5 more");
      await expect(page.getByRole("button", { name: CHECKOUT_MESSAGES[lang].cancelAndReturn })).toHaveCount(0);
    }),
  );
});

test("completed: a receipt naming the order once; back to the shop's domain (no redirectUrl)", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  await onBothDevices(openState(browser), (pages) =>
    everyLanguage(pages, pay(sessions.completed.sessionId), "completed", testInfo, async (page, _, lang) => {
      const receipt = page.getByTestId("receipt");
      await expect(receipt).toContainText(sessions.completed.sessionId);
      await expect(page.getByText(/ORD-10044/)).toHaveCount(1); // in the receipt only
      await expect(page.getByTestId("paid-at")).toHaveText(/\d/);
      // A local chain has no explorer to link to: the hash, shortened, whole in its title.
      await expect(page.getByTestId("tx-hash")).toHaveAttribute("title", /^0x[0-9a-f]{64}$/);
      await expect(page.getByTestId("tx-hash")).toHaveText(/^0x[0-9a-f]{8}…[0-9a-f]{8}$/);
      await expect(page.getByRole("link", { name: CHECKOUT_MESSAGES[lang].backToShop })).toHaveAttribute(
        "href",
        "https://shop.example.com",
      );
      if (lang === "en") await expect(receipt).toContainText("Payment received");
    }),
  );
});

for (const state of ["expired", "cancelled"] as const) {
  test(`${state}: do not send, the reference and the order once, back to the shop's domain — not its 'paid' redirectUrl`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const { sessionId } = sessions[state];
    // The server reports expiry once the time is up; the feed is made to say so now.
    const prepare =
      state === "expired"
        ? (context: BrowserContext) =>
            context.route(`**/api/checkout/${sessionId}/events`, async (route) => {
              const view = (await (await api.get(`/api/checkout/${sessionId}`)).json()).data;
              const body = `event: status\ndata: ${JSON.stringify({ ...view, status: "expired", head: null })}\n\n`;
              await route.fulfill({ status: 200, headers: { "content-type": "text/event-stream" }, body });
            })
        : undefined;
    // Cancelled is expired's page under another title: three scripts cover it.
    const languages = state === "expired" ? LOCALES : (["en", "ru", "zh"] as const);
    await onBothDevices(openState(browser, prepare), (pages) =>
      everyLanguage(
        pages,
        pay(sessionId),
        state,
        testInfo,
        async (page, _, lang) => {
          const t = CHECKOUT_MESSAGES[lang];
          await expect(page.getByRole("heading", { name: state === "expired" ? t.expiredTitle : t.cancelledTitle })).toBeVisible();
          await expect(page.getByText(state === "expired" ? /ORD-10045/ : /ORD-10046/)).toHaveCount(1);
          await expect(page.getByTestId("order-id")).toHaveCount(0);
          await expect(page.getByRole("link", { name: t.backToShop })).toHaveAttribute("href", "https://shop.example.com");
          await expect(page.getByRole("button", { name: t.cancelAndReturn })).toHaveCount(0);
        },
        languages,
      ),
    );
  });
}

test("the payer cancels: asked once more, then back to the shop's domain (not its redirectUrl), and the merchant sees it cancelled", async ({
  page,
}) => {
  const logs = watchConsole(page);
  const session = await merchant.createPayment("3", { redirectUrl: "https://shop.example.com/thanks" });
  await page.route("https://shop.example.com/**", (route) => route.fulfill({ body: "<h1>Shop</h1>", contentType: "text/html" }));
  await page.goto(`${pay(session.sessionId)}?lang=en`);
  await page.getByRole("button", { name: "Cancel and return to the shop" }).click();
  await expect(page.getByTestId("cancel-confirm")).toContainText("Cancel this payment?");
  await page.getByRole("button", { name: "Keep paying" }).click(); // changes nothing
  expect((await merchant.status(session.sessionId)).status).toBe("pending");
  await page.getByRole("button", { name: "Cancel and return to the shop" }).click();
  await page.getByRole("button", { name: "Yes, cancel" }).click();
  await page.waitForURL("https://shop.example.com/");
  expect((await merchant.status(session.sessionId)).status).toBe("cancelled");
  // Once closed, there is nothing left to cancel: the page shows it, and the endpoint refuses.
  await page.goto(`${pay(session.sessionId)}?lang=en`);
  await expect(page.getByRole("heading", { name: "This payment was cancelled" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel and return to the shop" })).toHaveCount(0);
  const again = await page.request.post(`/api/checkout/${session.sessionId}/cancel`);
  expect(again.status()).toBe(400);
  expect((await again.json()).error.message).toBe("this payment is already cancelled; nothing changed");
  logs.assertClean();
});

test("a phone without a wallet: MetaMask's and Trust Wallet's browsers open the plain checkout in the payer's language, a new tab from the embed", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const logs = watchConsole(page);
  const { sessionId } = sessions.pending;
  const plain = `${baseURL}/pay/${sessionId}?lang=vi`;
  const host = new URL(baseURL ?? "").host;
  await page.goto(`/pay/${sessionId}?lang=vi`);
  const wallets = page.getByTestId("mobile-wallets");
  const metamask = wallets.getByRole("link", { name: "Mở trong MetaMask" });
  const trust = wallets.getByRole("link", { name: "Mở trong Trust Wallet" });
  await expect(metamask).toHaveAttribute("href", `https://metamask.app.link/dapp/${host}/pay/${sessionId}?lang=vi`);
  await expect(trust).toHaveAttribute("href", `https://link.trustwallet.com/open_url?coin_id=20000714&url=${encodeURIComponent(plain)}`);
  await expect(metamask).not.toHaveAttribute("target", /./); // the page itself hands over to the wallet
  const paymentUri = await page.locator("img[data-payment-uri]").getAttribute("data-payment-uri");
  await expect(page.getByTestId("other-wallet")).toHaveAttribute("href", paymentUri ?? "missing");
  await expect(page.getByText("Không tìm thấy ví trình duyệt")).toHaveCount(0); // no "scan the QR" on the phone itself
  await expect(page.locator("img[data-payment-uri]")).toBeHidden();
  await page.getByText("Thanh toán từ thiết bị khác").click();
  await expect(page.locator("img[data-payment-uri]")).toBeVisible();

  // Inside checkout.js's iframe: the wallet gets the plain page (never ?embed=1), in a new tab.
  await page.goto(`/pay/${sessionId}?embed=1&lang=tr`);
  const embedded = page.getByTestId("mobile-wallets").getByRole("link", { name: CHECKOUT_MESSAGES.tr.openInMetaMask });
  await expect(embedded).toHaveAttribute("href", `https://metamask.app.link/dapp/${host}/pay/${sessionId}?lang=tr`);
  await expect(embedded).toHaveAttribute("target", "_blank");
  await expect(embedded).toHaveAttribute("rel", "noopener");
  await expect(page.getByTestId("mobile-wallets").getByRole("link", { name: CHECKOUT_MESSAGES.tr.openInTrustWallet })).toHaveAttribute(
    "href",
    `https://link.trustwallet.com/open_url?coin_id=20000714&url=${encodeURIComponent(`${baseURL}/pay/${sessionId}?lang=tr`)}`,
  );
  logs.assertClean();
  await context.close();

  // The same phone with a wallet injected (a wallet's own browser): the wallet button, no deep links.
  const inWallet = await browser.newContext(PHONE);
  const walletPage = await inWallet.newPage();
  await injectWallet(walletPage, { account: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
  await walletPage.goto(`/pay/${sessionId}?lang=en`);
  await expect(walletPage.getByRole("button", { name: "Pay 1,234.5 DUSD with Test Wallet" })).toBeVisible();
  await expect(walletPage.getByTestId("mobile-wallets")).toHaveCount(0);
  await expect(walletPage.locator("img[data-payment-uri]")).toBeVisible();
  await inWallet.close();
});

test("a desktop browser without a wallet keeps the QR open and says to scan it with a phone", async ({ page }) => {
  const logs = watchConsole(page);
  await page.goto(`${pay(sessions.pending.sessionId)}?lang=en`);
  await expect(page.getByText("Scan the QR code with the wallet app on your phone")).toBeVisible();
  await expect(page.locator("img[data-payment-uri]")).toBeVisible();
  await expect(page.getByTestId("mobile-wallets")).toHaveCount(0);
  logs.assertClean();
});
