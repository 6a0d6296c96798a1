import { expect, type Page, test } from "@playwright/test";
import { captureBothThemes, expectAccessible, screenshot, signIn, signUp, watchConsole } from "./helpers/pages";

/**
 * The merchant dashboard in the production build, driven as a merchant would: from sign-up to a
 * completed payment, its timeline, a withdrawal and the CSV export; then a second merchant who
 * must see none of it; then every page in both themes, at desktop and phone widths, through axe.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "correct horse battery staple";
const first = {
  email: `dash-a-${Date.now()}@example.com`,
  sessionId: "",
  withdrawalPath: "",
  withdrawalTo: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199",
};
const second = { email: `dash-b-${Date.now()}@example.com` };

async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: text }).first()).toBeVisible({ timeout: 15_000 });
}

test("a merchant goes from sign-up to a completed payment, a completed withdrawal and a CSV export", async ({ page, request }) => {
  test.setTimeout(180_000);
  const logs = watchConsole(page);

  // Signed-out visits go to the login page, and come back after it.
  await page.goto("/dashboard/tokens");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Ftokens$/);

  await signUp(page, first.email, PASSWORD);
  await expect(page.getByRole("heading", { name: "Get started" })).toBeVisible();

  // Plan
  await page.getByRole("link", { name: "Plan", exact: true }).first().click();
  await page.getByRole("button", { name: "Choose Starter" }).click();
  await expectToast(page, "Starter plan active");
  await expect(page.getByRole("heading", { name: "Starter plan" })).toBeVisible();

  // Token, from the catalogue: symbol and decimals shown before registering.
  await page.goto("/dashboard/tokens");
  const dusd = page.locator('li[data-symbol="DUSD"]');
  await expect(dusd).toContainText("18 decimals");
  await dusd.getByRole("button", { name: "Register DUSD on Local test chain" }).click();
  await expectToast(page, "DUSD registered");
  await expect(dusd.getByText("Registered")).toBeVisible();

  // Domain
  await page.goto("/dashboard/domains");
  await page.getByLabel("Shop origin").fill("https://shop-a.example.com");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expectToast(page, "https://shop-a.example.com whitelisted");
  await expect(page.getByRole("heading", { name: "https://shop-a.example.com" })).toBeVisible();

  // API key: shown once, taken from the page.
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Key name").fill("shop-a checkout server");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").innerText()).trim();
  expect(key).toMatch(/^bscp_live_/);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.locator('tr[data-key-name="shop-a checkout server"]')).toContainText(key.slice(0, 16));

  // A payment created by the shop's backend over HTTP with that key.
  const tokens = await (await page.request.get("/api/user/tokens")).json();
  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": key },
    data: { tokenId: tokens.data[0].tokenId, amount: "25", metadata: { order: "A-1" } },
  });
  expect(created.status()).toBe(201);
  first.sessionId = (await created.json()).data.sessionId;

  // Simulate it, watch it complete and forward.
  await page.goto(`/dashboard/payments/${first.sessionId}`);
  await expect(page.locator("h1").getByText("Pending", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Simulate payment" }).click();
  await expectToast(page, "Payment sent from the demo wallet");
  await expect(page.locator('[data-event="deposit"]')).toContainText("25 DUSD", { timeout: 30_000 });
  await expect(page.locator('[data-event="forward"][data-status="completed"]')).toBeVisible({ timeout: 45_000 });
  await expect(page.locator("h1").getByText("Completed")).toBeVisible();

  await page.goto("/dashboard/payments?status=completed");
  await expect(page.locator(`tr[data-session-id="${first.sessionId}"]`)).toContainText("Completed");

  // A withdrawal from the domain's wallet, which received the forwarded payment.
  await page.goto("/dashboard/withdrawals");
  await expect(page.getByTestId("available")).toContainText("25 DUSD", { timeout: 20_000 });
  await page.getByLabel("Amount").fill("10");
  await page.getByLabel("Recipient address").fill(first.withdrawalTo);
  await page.getByRole("button", { name: "Review withdrawal" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("10 DUSD");
  // A double click sends once.
  await dialog.getByRole("button", { name: "Send withdrawal" }).dblclick();
  await expectToast(page, "Sending 10 DUSD");
  await expect(page.locator("tr[data-withdrawal-id]")).toHaveCount(1);
  await expect(page.locator('tr[data-withdrawal-id][data-status="completed"]')).toBeVisible({ timeout: 45_000 });
  await page.locator("tr[data-withdrawal-id] a").first().click();
  await expect(page.getByText("Confirmed on chain")).toBeVisible();
  first.withdrawalPath = new URL(page.url()).pathname;

  // What the gas tank spent for this merchant: the sweep of the payment and the withdrawal's top-up.
  await page.getByRole("link", { name: "Gas usage", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Gas usage", level: 1 })).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  const todayRow = page.getByRole("row").filter({ hasText: today });
  await expect(todayRow).toHaveCount(1);
  await expect(todayRow.getByRole("cell").nth(3)).toContainText("BNB"); // withdrawal gas
  await expect(page.getByRole("columnheader")).toHaveText([
    "Day",
    "Forwarding payments",
    "Forwarding in groups",
    "Withdrawals",
    "Speed-ups",
    "Total",
  ]);
  await expect(page.getByText("Forwarding your payments never waits for it.")).toBeVisible();
  await expect(todayRow.getByRole("cell").last()).toContainText("BNB");
  await expect(page.getByText("1 / 100")).toBeVisible(); // withdrawals today, of the Starter plan's
  await expect(page.getByText("of 0.1 BNB a day on the Starter plan")).toBeVisible();

  // The CSV export of the filtered list holds the payment.
  await page.goto("/dashboard/payments?status=completed");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await (await (await download).createReadStream()).toArray();
  const text = Buffer.concat(csv).toString("utf8");
  expect(text.split("\r\n")[0]).toBe(
    "sessionId,orderId,description,createdAt,status,amount,receivedAmount,token,network,domainId,depositAddress,txHash,overpaid,late,expiresAt,completedAt,currency,fiatAmount,rate,valueCurrency,value,accountCurrency,accountValue,accountRate",
  );
  expect(text).toContain(`${first.sessionId},`);
  expect(text).toContain(",completed,25,25,DUSD,local,");
  // DUSD is the demo chain's USD stablecoin: worth 1:1 USD, in a USD account as is.
  expect(text).toMatch(/,,,,USD,25\.00,USD,25\.00,\r\n/);
  // Sent as it is even to a client that asks for gzip: `next start` would otherwise spend ~0.5 s of
  // the engine's CPU compressing a big month (a proxy in front may compress it instead).
  const plain = await page.request.get("/dashboard/payments/export?status=completed", { headers: { "accept-encoding": "gzip" } });
  expect(plain.headers()["content-encoding"]).toBeUndefined();
  expect(plain.headers()["cache-control"]).toBe("no-store, no-transform");
  expect(await plain.text()).toBe(text);

  // The first-run checklist is gone once everything is done.
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Get started" })).toHaveCount(0);
  await expect(page.getByText("No completed payments")).toHaveCount(0);
  logs.assertClean();
});

test("the overview and the CSV follow the account currency the merchant sets", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  await signIn(page, first.email, PASSWORD);
  await page.goto("/dashboard");
  await expect(page.getByTestId("account-total")).toHaveText("25.00 USD");
  await expect(page.getByTestId("token-totals")).toContainText("25 DUSD");

  // Refused over the API, nothing changes.
  const sameOrigin = { origin: new URL(page.url()).origin }; // cookie-authenticated API mutations must carry it (CSRF)
  for (const accountCurrency of ["usd", "BTC", ""]) {
    const refused = await page.request.patch("/api/user/settings", { data: { accountCurrency }, headers: sameOrigin });
    expect(refused.status()).toBe(400);
  }
  expect((await (await page.request.get("/api/user/settings")).json()).data.accountCurrency).toBe("USD");

  await page.goto("/dashboard/settings");
  await page.getByLabel("Account currency").selectOption("EUR");
  await page.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Reports are now shown in EUR.");
  await captureBothThemes(page, testInfo, "settings-account-currency");

  await page.goto("/dashboard");
  // 25.00 USD (DUSD 1:1) converted at today's EUR/USD rate of the demo chain's feed, shown beside.
  await expect(page.getByTestId("account-total")).toContainText(/^[0-9]+\.[0-9]{2} EUR$/);
  await expect(page.getByTestId("conversions")).toContainText("25.00 USD at today's rate, 1 USD =");
  await expect(page.getByTestId("token-totals")).toContainText("25 DUSD");
  await expect(page.getByRole("img", { name: /Completed volume per day in EUR/ })).toBeVisible();
  await captureBothThemes(page, testInfo, "overview-account-currency", { axeOnPhone: true });

  const csv = await (await page.request.get("/dashboard/payments/export?status=completed")).text();
  expect(csv).toMatch(/,,,,USD,25\.00,EUR,[0-9]+\.[0-9]{2},[0-9]+\.[0-9]{8}\r\n/);

  // Back to USD for the tests after this one.
  expect((await page.request.patch("/api/user/settings", { data: { accountCurrency: "USD" }, headers: sameOrigin })).status()).toBe(200);
  logs.assertClean();
});

test("a domain's fiat thresholds: a bad value refused on its field, a good one saved, empty back to the default", async ({
  page,
}, testInfo) => {
  await signUp(page, `dash-fiat-${Date.now()}@example.com`, PASSWORD);
  await page.goto("/dashboard/domains");
  await page.getByLabel("Shop origin").fill("https://fiat.example.com");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expectToast(page, "https://fiat.example.com whitelisted");
  const form = page.getByRole("form", { name: "Payments priced in fiat" });
  const underpay = form.getByLabel("Accept short by less than (bps)");
  await expect(underpay).toHaveValue("");
  await expect(form).toContainText("now 0 bps (0 %)");
  const save = form.getByRole("button", { name: "Save thresholds" });
  await expect(save).toBeDisabled();

  await underpay.fill("1001");
  await save.click();
  await expectToast(page, "Not saved");
  await expect(underpay).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("at most 1000");
  await captureBothThemes(page, testInfo, "domain-fiat-threshold-refused");

  await underpay.fill("0");
  await form.getByLabel("Late payment rate tolerance (bps)").fill("250");
  await save.click();
  await expectToast(page, "Fiat thresholds saved");
  await expect(underpay).toHaveValue("0");
  await expect(underpay).not.toHaveAttribute("aria-invalid", "true");
  const domains = await (await page.request.get("/api/user/domains")).json();
  expect(domains.data[0]).toMatchObject({ fiatUnderpayBps: 0, fiatRateToleranceBps: 250 });
  await captureBothThemes(page, testInfo, "domain-fiat-thresholds-saved");

  await underpay.fill("");
  await save.click();
  await expect(form).toContainText("now 0 bps (0 %)", { timeout: 15_000 });
  expect((await (await page.request.get("/api/user/domains")).json()).data[0]).toMatchObject({
    fiatUnderpayBps: null,
    fiatRateToleranceBps: 250,
  });
});

test("a long CSV export shows its progress, can be cancelled, then saves the file", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  await signIn(page, first.email, PASSWORD);
  await page.goto("/dashboard/payments");
  const button = page.getByRole("link", { name: "Export CSV" });
  // Without JavaScript the button is a plain download of the same file.
  await expect(button).toHaveAttribute("href", "/dashboard/payments/export");
  await expect(button).toHaveAttribute("download", "");

  // The server holds the export back, as a long one would: the progress shows, with a Cancel.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/dashboard/payments/export*", async (route) => {
    await held;
    await route.continue().catch(() => {}); // a cancelled request has nothing left to continue
  });
  await button.click();
  const progress = page.getByTestId("export-progress");
  await expect(progress).toContainText("Exporting…");
  await expect(progress).toContainText("0 rows · 0.0 MB");
  await expect(page.getByRole("status").filter({ hasText: "Export started." })).toBeAttached();
  await captureBothThemes(page, testInfo, "payments-export-progress", { axeOnPhone: true });
  await progress.getByRole("button", { name: "Cancel" }).click();
  await expect(progress).toHaveCount(0);
  await expect(page.getByRole("status")).toHaveText("Export cancelled.");
  release();
  await page.unroute("**/dashboard/payments/export*");

  // Unheld, it streams to the end and is saved under the server's file name.
  const download = page.waitForEvent("download");
  await button.click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^bsc-pay-payments-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = Buffer.concat(await (await saved.createReadStream()).toArray()).toString("utf8");
  expect(text).toContain(`${first.sessionId},`);
  await expect(page.getByRole("status")).toHaveText(/^Export complete: \d+ rows? saved\.$/);
  await captureBothThemes(page, testInfo, "payments-export-done");

  // The withdrawals and gas pages export the same way.
  const saveFrom = async (path: string) => {
    await page.goto(path);
    const saving = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await saving;
    await expect(page.getByRole("status").filter({ hasText: "Export complete" })).toBeAttached();
    return Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8");
  };
  const withdrawalsCsv = await saveFrom("/dashboard/withdrawals");
  expect(withdrawalsCsv.split("\r\n")[0]).toBe(
    "withdrawalId,createdAt,status,amount,token,network,domain,source,fromAddress,toAddress,txHash,confirmedAt,failureReason,refundId",
  );
  expect(withdrawalsCsv).toContain(`${first.withdrawalPath.split("/").at(-1)},`);
  const gasCsv = await saveFrom("/dashboard/gas");
  expect(gasCsv.split("\r\n")[0]).toBe("createdAt,kind,purpose,status,txHash,chargedBnb");
  expect(gasCsv.split("\r\n").length).toBeGreaterThan(2); // the forward's gas at least
  logs.assertClean();
});

test("a second merchant never sees the first's data on any page", async ({ page }) => {
  const logs = watchConsole(page);
  await signUp(page, second.email, PASSWORD);
  for (const path of [
    "/dashboard",
    "/dashboard/payments",
    "/dashboard/withdrawals",
    "/dashboard/gas",
    "/dashboard/tokens",
    "/dashboard/domains",
    "/dashboard/api-keys",
    "/dashboard/webhooks",
  ]) {
    await page.goto(path);
    const body = await page.locator("main").innerText();
    expect(body, path).not.toContain(first.sessionId);
    expect(body, path).not.toContain("shop-a.example.com");
    expect(body, path).not.toContain("shop-a checkout server");
  }
  await page.goto("/dashboard/payments?status=completed");
  await expect(page.getByText("No payments match")).toBeVisible();
  await page.goto("/dashboard/gas");
  await expect(page.getByText("No gas spent yet")).toBeVisible();
  await page.goto(`/dashboard/payments/${first.sessionId}`);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.goto(first.withdrawalPath);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  const csv = await page.request.get("/dashboard/payments/export");
  expect(await csv.text()).not.toContain(first.sessionId);
  logs.assertClean();
});

const PAGES = [
  ["overview", "/dashboard"],
  ["payments", "/dashboard/payments"],
  ["payment-new", "/dashboard/payments/new"],
  ["payment-detail", "PAYMENT"],
  ["withdrawals", "/dashboard/withdrawals"],
  ["withdrawal-detail", "WITHDRAWAL"],
  ["gas", "/dashboard/gas"],
  ["tokens", "/dashboard/tokens"],
  ["domains", "/dashboard/domains"],
  ["api-keys", "/dashboard/api-keys"],
  ["webhooks", "/dashboard/webhooks"],
  ["plan", "/dashboard/plan"],
  ["settings", "/dashboard/settings"],
] as const;

/** What a dashboard page never shows: a network's id in a label, or the engine's own words. */
const ENGINE_WORDS = /\((?:bsc|bsc-testnet|local)\)|\b(?:sweeps?|batched|forward\(s\)|nonce|tokenId|domainId)\b/i;
const ERROR_CODE = /\b[A-Z]{2,}_[A-Z_]{2,}\b/;

// Each page is loaded once and shot in both themes, switched in place (axe per theme at desktop
// width; screenshots at desktop and phone widths).
test("every page is accessible and renders cleanly at 1280 and 375 px, light and dark", async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  // A system set to dark: the page is dark from its first paint (the theme script), before any switch.
  const context = await browser.newContext({ colorScheme: "dark", viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const logs = watchConsole(page);
  await page.goto("/login");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  const visit = async (name: string, path: string) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(path);
    await expect(page.locator("h1").first()).toBeVisible();
    await page.waitForLoadState("load");
    // Axe would otherwise measure colours mid-transition after the theme class changes.
    await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
    for (const theme of ["light", "dark"] as const) {
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
      await page.setViewportSize({ width: 1280, height: 900 });
      await expectAccessible(page, `${name} (${theme})`);
      await screenshot(page, testInfo, `${name}-1280-${theme}`);
      await page.setViewportSize({ width: 375, height: 800 });
      await screenshot(page, testInfo, `${name}-375-${theme}`);
    }
    await page.evaluate(() => document.documentElement.classList.remove("dark"));
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  for (const path of ["/", "/login", "/signup"]) await visit(path === "/" ? "home" : path.slice(1), path);
  await signIn(page, first.email, PASSWORD);
  for (const [name, path] of PAGES) {
    await visit(name, path === "PAYMENT" ? `/dashboard/payments/${first.sessionId}` : path === "WITHDRAWAL" ? first.withdrawalPath : path);
    await expect(page.locator("main h1").first()).toBeVisible();
    // The merchant's words only: no network id ("BNB (local)"), no engine term.
    const text = await page.locator("main").innerText();
    expect(text, name).not.toMatch(ENGINE_WORDS);
    expect(text, name).not.toMatch(ERROR_CODE);
    // The withdrawal wallet's BNB (gas dust, 18 decimals) to 6 places, so it stays inside its card.
    if (name === "domains") await expect(page.getByTestId("wallet-balances")).not.toContainText(/\.\d{7}/);
  }
  logs.assertClean();
  await context.close();
});
