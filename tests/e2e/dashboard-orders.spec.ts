import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { apiMerchant } from "./helpers/merchant";
import { captureBothThemes, signIn, signUp, watchConsole } from "./helpers/pages";

/**
 * Payments around orders, with one merchant set up over the API: the Order column,
 * the search over metadata, whole-row links, a payment's webhook events, a one-off payment made on
 * the dashboard, the Developers navigation, the network and test-mode banner, and the blocked
 * states. Each changed page is captured in both themes at 1280 and 375 px and checked with axe.
 */
test.use({ permissions: ["clipboard-read", "clipboard-write"], viewport: { width: 1280, height: 900 } });

/** A webhook receiver that answers 200 to everything. */
async function startReceiver() {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end("ok"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const capture = (page: Page, testInfo: TestInfo, name: string, options?: { axeOnPhone?: boolean }) =>
  captureBothThemes(page, testInfo, `orders-${name}`, options);

test("payments around orders: order column, metadata search, row links, webhook events, a one-off payment, navigation", async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(150_000);
  const logs = watchConsole(page);
  const receiver = await startReceiver();
  try {
    const merchant = await apiMerchant(request, ["https://orders.example.com", "https://second.example.com"]);
    const domains = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data as {
      domainId: number;
      domain: string;
    }[];
    const [shop, second] = [domains[0], domains[1]];
    if (!shop || !second) throw new Error("two domains expected");
    await request.patch(`/api/user/domains/${shop.domainId}`, { headers: merchant.headers, data: { webhookUrl: receiver.url } });
    const byMetadata = await merchant.createPayment("3", { metadata: { customer: "ada@example.com" } });
    const byDescription = await merchant.createPayment("4", { description: "2 × Flat white" });
    const byOrder = await merchant.createPayment("5", { orderId: "ORD-77", description: "Mug" });
    // A cancel writes a payment.cancelled event for the shop's endpoint.
    await request.post(`/api/v1/payment/${byOrder.sessionId}/cancel`, { headers: { "x-api-key": merchant.key } });

    await signIn(page, merchant.email, merchant.password);

    // The network in the top bar and the test-mode banner; Developers in the sidebar; Settings once.
    await expect(page.getByTestId("network")).toHaveText(/Local test chain/);
    await expect(page.getByTestId("test-mode")).toHaveText("Test mode: payments use test tokens, not real money.");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("list", { name: "Developers" }).getByRole("link")).toHaveText(["API keys", "Webhooks", "Docs"]);
    await expect(page.getByRole("link", { name: "Settings" })).toHaveCount(1);
    await page.getByRole("button", { name: /Account menu/ }).click();
    await expect(page.getByRole("menuitem")).toHaveText(["Sign out"]);
    await page.keyboard.press("Escape");

    // Overview: money first; the checklist is done.
    await expect(page.getByTestId("volume-figure")).toContainText("Received in the last 30 days");
    await expect(page.locator("main section").first()).toHaveAttribute("aria-label", "Money received");
    await capture(page, testInfo, "overview");

    // The list: the Order column in the order orderId > description > metadata.
    await page.goto("/dashboard/payments");
    const row = (id: string) => page.locator(`tr[data-session-id="${id}"]`);
    await expect(row(byOrder.sessionId).locator("td").nth(1)).toHaveText("ORD-77");
    await expect(row(byDescription.sessionId).locator("td").nth(1)).toHaveText("2 × Flat white");
    await expect(row(byMetadata.sessionId).locator("td").nth(1)).toHaveText("customer=ada@example.com");
    await expect(row(byOrder.sessionId)).toContainText("Cancelled");
    // The search box says what it searches (each kind is served by an index; descriptions are not searched).
    await expect(page.getByLabel("Search")).toHaveAttribute("placeholder", /Order ref, payment id, 0x… hash or address, key:value/);
    await expect(page.getByText("Descriptions are not searched.")).toBeVisible();
    await capture(page, testInfo, "payments");

    // Search reaches into metadata: a value whole, or key:value.
    await page.getByLabel("Search").fill("ada@example.com");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("tr[data-session-id]")).toHaveCount(1);
    await expect(row(byMetadata.sessionId)).toBeVisible();
    await capture(page, testInfo, "payments-search-found");
    await page.getByLabel("Search").fill("customer:ada@example.com");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("tr[data-session-id]")).toHaveCount(1);
    // No match: the empty state says what search looks at.
    await page.getByLabel("Search").fill("Flat white");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("No payments match")).toBeVisible();
    await capture(page, testInfo, "payments-search-none");

    await page.getByLabel("Search").fill("ada@example.com");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.locator("tr[data-session-id]")).toHaveCount(1);
    // A date that is not YYYY-MM-DD is refused by the browser before the form is sent.
    await page.getByLabel("From (YYYY-MM-DD)").fill("03/04/2026");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]from=&/); // still the previous search: nothing was sent
    expect(await page.getByLabel("From (YYYY-MM-DD)").evaluate((el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true);
    // Digits only, as an iPhone's number pad types them (it has no "-"; the field asks for no pad): read as YYYY-MM-DD.
    await expect(page.getByLabel("From (YYYY-MM-DD)")).not.toHaveAttribute("inputmode", /./);
    await page.getByLabel("From (YYYY-MM-DD)").fill("20000101");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]from=20000101/);
    await expect(page.getByLabel("From (YYYY-MM-DD)")).toHaveValue("2000-01-01");
    await expect(page.getByText("Some filters were not understood")).toHaveCount(0);
    await expect(page.locator("tr[data-session-id]")).toHaveCount(1);

    // Pages by cursor: Newer / Older links, no page numbers and no total; an old numbered link opens the newest page.
    await page.goto("/dashboard/payments?limit=2");
    const pages = page.getByRole("navigation", { name: "Pages of payments" });
    await expect(pages.getByRole("link", { name: "Newer payments" })).toHaveCount(0);
    await expect(pages.getByText("Newer", { exact: true })).toHaveAttribute("aria-disabled", "true");
    await expect(page.locator("tr[data-session-id]")).toHaveCount(2);
    await pages.getByRole("link", { name: "Older payments" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/[?&]after=/);
    await expect(page.locator("tr[data-session-id]")).toHaveCount(1);
    await expect(pages.getByRole("link", { name: "Newer payments" })).toBeVisible();
    await expect(pages.getByText("Older", { exact: true })).toHaveAttribute("aria-disabled", "true");
    await capture(page, testInfo, "payments-older");
    await pages.getByRole("link", { name: "Newer payments" }).click();
    await expect(page.locator("tr[data-session-id]")).toHaveCount(2);
    await page.goto("/dashboard/payments?page=40&status=pending");
    await expect(page).toHaveURL(/\/dashboard\/payments\?status=pending$/);
    // The whole row opens the payment: a click on its status cell, and the keyboard.
    await page.goto("/dashboard/payments");
    // A real pointer click in the middle of the status cell (the row's link lies over it on purpose).
    const cell = await row(byDescription.sessionId).locator("td").nth(2).boundingBox();
    if (!cell) throw new Error("status cell not laid out");
    await page.mouse.click(cell.x + cell.width / 2, cell.y + cell.height / 2);
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${byDescription.sessionId}$`));
    await page.goBack();
    const links = page.locator("a[data-row-link]");
    await links.first().focus();
    await page.keyboard.press("ArrowDown");
    await expect(links.nth(1)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${byDescription.sessionId}$`));
    // At 375 px the date is still on each row.
    await page.goto("/dashboard/payments");
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(
      row(byOrder.sessionId)
        .getByText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/)
        .filter({ visible: true }),
    ).toHaveCount(1);
    await page.setViewportSize({ width: 1280, height: 900 });

    // The cancelled order's page: merchant words, no "Flags: none", and its webhook event, delivered.
    await page.goto(`/dashboard/payments/${byOrder.sessionId}`);
    const details = page.getByTestId("payment-details");
    await expect(details.locator("dt", { hasText: "Flags" })).toHaveCount(0);
    await expect(details).toContainText("Local test chain");
    await expect(details).toContainText("Your shop (API key)");
    await expect(details.locator("dd", { hasText: "ORD-77" })).toBeVisible();
    const events = page.getByTestId("payment-webhooks");
    const cancelled = events.locator('tr[data-event-type="payment.cancelled"]');
    await expect(cancelled).toContainText(shop.domain);
    // The page does not refresh itself once a payment has settled: reload until the delivery is recorded.
    await expect(async () => {
      await page.reload();
      await expect(cancelled.locator('[data-state="delivered"]')).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(events.locator("tr[data-delivery-id]")).toHaveCount(1);
    await capture(page, testInfo, "payment-detail");
    await cancelled.getByRole("button", { name: /^Redeliver payment\.cancelled/ }).click();
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "payment.cancelled queued again" })).toBeVisible();
    // Another payment's page lists none of it.
    await page.goto(`/dashboard/payments/${byDescription.sessionId}`);
    await expect(page.getByTestId("no-payment-deliveries")).toBeVisible();

    // Webhooks: every domain, its URL and its deliveries; a domain without a URL says how to set one.
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    const shopCard = page.locator(`[data-webhooks-domain="${shop.domain}"]`);
    await expect(shopCard).toContainText(receiver.url);
    await expect(shopCard.locator('tr[data-event-type="payment.cancelled"]')).toBeVisible();
    await expect(page.locator(`[data-webhooks-domain="${second.domain}"]`).getByRole("link", { name: /Set up webhooks/ })).toBeVisible();
    await capture(page, testInfo, "webhooks");

    // A one-off payment: disabled until filled, a bad amount refused in place (nothing created), then the link.
    await page.goto("/dashboard/payments");
    const before = await page.locator("tr[data-session-id]").count();
    await page.getByRole("link", { name: "New payment" }).click();
    const create = page.getByRole("button", { name: "Create payment" });
    await expect(create).toBeDisabled();
    await page.getByLabel("Amount").fill("1,5");
    await expect(create).toBeEnabled();
    await create.click();
    await expect(page.getByText("Enter an amount such as 10.5")).toBeVisible();
    await expect(page.getByLabel("Amount")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Amount").fill("");
    await expect(create).toBeDisabled();
    await capture(page, testInfo, "payment-new");
    await page.getByLabel("Amount").fill("12.5");
    await page.getByLabel("Description (optional)").fill("Invoice 7: logo design");
    await page.getByLabel("Order reference (optional)").fill("INV-7");
    await page.getByLabel("Domain").selectOption({ label: second.domain });
    await create.click();
    const done = page.getByTestId("payment-created");
    await expect(done).toContainText("Payment of 12.5 DUSD created");
    const link = await page.getByLabel(/Checkout link/).inputValue();
    expect(link).toMatch(/\/pay\/[0-9a-f-]{36}$/);
    await done.getByRole("button", { name: "Copy link" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await capture(page, testInfo, "payment-new-created");
    await done.getByRole("link", { name: "Open the payment" }).click();
    await expect(page.getByTestId("payment-details")).toContainText("You, on the dashboard");
    await expect(page.getByTestId("payment-details")).toContainText(second.domain);
    await expect(page.getByTestId("payment-details")).toContainText("INV-7");
    await page.goto("/dashboard/payments");
    await expect(page.locator("tr[data-session-id]")).toHaveCount(before + 1);

    // A new merchant is told what to set up first, with links to each fix.
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    const otherLogs = watchConsole(other);
    await signUp(other, `orders-blocked-${Date.now()}@example.com`, "correct horse battery staple");
    await other.getByRole("link", { name: /Create your first payment/ }).click();
    await expect(other).toHaveURL(/\/dashboard\/payments\/new$/);
    const blockers = other.getByTestId("blockers");
    await expect(blockers.getByRole("link")).toHaveText(["Choose a plan", "Register a token", "Add a domain"]);
    await expect(other.getByRole("button", { name: "Create payment" })).toBeDisabled();
    await capture(other, testInfo, "payment-new-blocked", { axeOnPhone: true });
    otherLogs.assertClean();
    await fresh.close();
    logs.assertClean();
  } finally {
    await receiver.close();
  }
});

test("a payment and a link priced in USD from the dashboard: chosen under Price in, shown in USD on the list, its page and the CSV", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://fiat.example.com"]);
  await signIn(page, merchant.email, merchant.password);

  // A token amount typed with a currency ("25 USD") is told where a currency price is chosen, and nothing is created.
  await page.goto("/dashboard/payments/new");
  const create = page.getByRole("button", { name: "Create payment" });
  await page.getByLabel("Amount").fill("25 USD");
  await create.click();
  await expect(page.getByText("To price it in USD, choose it under “Price in”.")).toBeVisible();

  // Price in the account's currency: no token to choose, the amount in USD.
  await page.getByLabel("USD, your account's currency").check();
  await expect(page.getByLabel("Token", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Paid in any of your tokens, at the rate when it is created.")).toBeVisible();
  const amount = page.getByLabel("Amount in USD");
  await amount.fill("25.001");
  await create.click();
  await expect(page.getByText("USD has 2 decimals: use at most 2 digits after the dot.")).toBeVisible();
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await amount.fill("25");
  await page.getByLabel("Order reference (optional)").fill("FIAT-25");
  await capture(page, testInfo, "payment-new-fiat");
  await create.click();
  const done = page.getByTestId("payment-created");
  await expect(done).toContainText("Payment of 25.00 USD created");
  await expect(done).toContainText("Asked first as 25 DUSD");
  await capture(page, testInfo, "payment-new-fiat-created");

  // Its page: the price in USD is the headline, the token amount and the rate under it.
  await done.getByRole("link", { name: "Open the payment" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("25.00 USD");
  await expect(page.getByTestId("price-detail")).toHaveText(/25 DUSD\s*· 1 DUSD = 1\.00 USD/);
  await capture(page, testInfo, "payment-fiat-detail");
  const sessionId = page.url().split("/").pop() ?? "";

  // The list: the same headline and line, found by its order reference too.
  await page.goto("/dashboard/payments?q=FIAT-25");
  const row = page.locator(`tr[data-session-id="${sessionId}"]`);
  await expect(row.locator("td").first()).toContainText("25.00 USD");
  await expect(row.getByTestId("price-detail")).toHaveText(/25 DUSD\s*· 1 DUSD = 1\.00 USD/);
  await capture(page, testInfo, "payments-fiat");

  // The CSV: its fiat columns.
  const csv = await (await page.request.get("/dashboard/payments/export?q=FIAT-25")).text();
  const [header, line] = csv.trim().split(/\r?\n/);
  const names = header?.split(",") ?? [];
  const cells = line?.split(",") ?? [];
  const cell = (name: string) => cells[names.indexOf(name)];
  expect([cell("sessionId"), cell("currency"), cell("fiatAmount"), cell("amount"), cell("token")]).toEqual([
    sessionId,
    "USD",
    "25.00",
    "25",
    "DUSD",
  ]);
  expect(cell("rate")).toMatch(/^1\.0+$/);

  // A link priced in USD, made on the dashboard: its page shows the price in USD, and its payment is in USD too.
  await page.goto("/dashboard/links/new");
  await page.getByLabel("Title").fill("Workshop seat");
  await page.getByLabel("USD, your account's currency").check();
  await expect(page.getByText("The payer chooses")).toBeHidden();
  await page.getByLabel("Amount in USD").fill("19.90");
  await capture(page, testInfo, "link-new-fiat");
  await page.getByRole("button", { name: "Create link" }).click();
  const made = page.getByTestId("link-created");
  await expect(made).toContainText("Link “Workshop seat” created: 19.90 USD in DUSD");
  const linkUrl = await page.getByLabel(/Payment link: share it/).inputValue();
  await page.goto("/dashboard/links");
  await expect(page.getByRole("row", { name: /Workshop seat/ })).toContainText("19.90 USD in DUSD");
  await capture(page, testInfo, "links-fiat");

  await page.goto(`${new URL(linkUrl).pathname}?lang=en`);
  await expect(page.getByTestId("link-amount")).toHaveText("19.90 USD");
  await capture(page, testInfo, "link-page-fiat");
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}\?lang=en$/);
  const linkSession = new URL(page.url()).pathname.split("/").pop() ?? "";
  await page.goto(`/dashboard/payments?q=${linkSession}`);
  await expect(page.locator(`tr[data-session-id="${linkSession}"] td`).first()).toContainText("19.90 USD");
  await page.goto(`/dashboard/payments/${linkSession}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("19.90 USD");
  await expect(page.getByTestId("payment-details")).toContainText("Payment link “Workshop seat”");
  const linkCsv = (await (await page.request.get(`/dashboard/payments/export?q=${linkSession}`)).text()).trim().split(/\r?\n/);
  const linkCells = linkCsv[1]?.split(",") ?? [];
  expect([linkCells[names.indexOf("currency")], linkCells[names.indexOf("fiatAmount")]]).toEqual(["USD", "19.90"]);
  logs.assertClean();
});
