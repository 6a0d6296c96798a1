import { expect, type Page, type TestInfo, test } from "@playwright/test";
import type { Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { DEMO_DUSD_USD_FEED, setDemoFeedRound } from "../../lib/engine/dev/demo-feeds";
import { ANVIL_DEFAULT_KEYS } from "../../lib/engine/dev/demo-token";
import { apiMerchant, payDirectly, rpcUrl } from "./helpers/merchant";
import { captureBothThemes, signIn, watchConsole } from "./helpers/pages";
import { injectWallet } from "./helpers/wallet";

/**
 * Refunds and payment links on the merchant's dashboard (docs/design.md §19): a refund made on a payment's page, claimed by the payer on
 * a phone and shown as Refunded; a payment link created on /dashboard/links, paid with a browser
 * wallet, counted in its row, edited, deactivated, and its payments listed under a filter chip.
 * Each changed page is captured in both themes at 1280 and 375 px and checked with axe.
 */
test.use({ permissions: ["clipboard-read", "clipboard-write"], viewport: { width: 1280, height: 900 } });

const payer = privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]!).address;

const capture = (page: Page, testInfo: TestInfo, name: string) => captureBothThemes(page, testInfo, `refunds-links-${name}`);

test("a merchant refunds an overpaid payment from its page; the payer claims it on a phone", async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const [domain] = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data as {
    withdrawalAddress: Address;
  }[];
  if (!domain) throw new Error("a domain expected");
  const session = await merchant.createPayment("10", { orderId: "ORD-12", description: "Two mugs" });
  await payDirectly(session.depositAddress, "12");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
  // The domain's withdrawal wallet pays refunds: the merchant keeps tokens there.
  await payDirectly(domain.withdrawalAddress, "5");

  await signIn(page, merchant.email, merchant.password);
  await page.goto(`/dashboard/payments/${session.sessionId}`);
  const card = page.getByTestId("payment-refunds");
  await expect(card).toContainText("Up to 12 DUSD can go back to the payer");
  await expect(card.getByTestId("no-refunds")).toBeVisible();

  // The dialog: the overpaid part prefilled, the payer chooses by default; disabled while empty; errors in place.
  await card.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog");
  const amount = dialog.getByLabel("Amount", { exact: true });
  await expect(amount).toHaveValue("2");
  await expect(dialog.getByText("Up to 12 DUSD.")).toBeVisible();
  await expect(dialog.getByLabel("Let the payer choose the address (send them a link)")).toBeChecked();
  const submit = dialog.getByRole("button", { name: "Create refund link" });
  await amount.fill("");
  await expect(submit).toBeDisabled();
  await amount.fill("50");
  await submit.click();
  await expect(dialog.getByText("50 is more than this payment can still refund (12).")).toBeVisible();
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Send to an address I have").check();
  await expect(dialog.getByRole("button", { name: "Send refund" })).toBeDisabled(); // no address yet
  await expect(dialog.getByLabel("Payer's address")).toBeVisible();
  await capture(page, testInfo, "refund-dialog");
  await dialog.getByLabel("Let the payer choose the address (send them a link)").check();
  await amount.fill("2");
  await submit.click();
  // The link, with its secret, is shown this once, to the member who made the refund.
  const firstUrl = await dialog.getByLabel("Claim link").inputValue();
  expect(firstUrl).toMatch(/\/refund\/[0-9a-f-]{36}\?k=[A-Za-z0-9_-]{43}$/);
  await expect(dialog.getByTestId("refund-created")).toContainText("Shown only now");
  await dialog.getByRole("button", { name: "Copy link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstUrl);
  await capture(page, testInfo, "refund-created");
  await dialog.getByRole("button", { name: "Done" }).click();
  const refund = card.locator("li[data-refund-id]");
  await expect(refund).toHaveAttribute("data-status", "awaiting_address");
  await expect(refund).toContainText("Waiting for the payer's address");
  await expect(refund).toContainText("the address the payer chooses");
  await expect(card).toContainText("Up to 10 DUSD");
  // Closed, the link is gone from the page, and the page never had it.
  const secretOf = (url: string) => new URL(url).searchParams.get("k") ?? "";
  await expect(refund.getByRole("textbox")).toHaveCount(0);
  await page.reload();
  expect(await page.content()).not.toContain(secretOf(firstUrl));

  // Lost it: a new link (the creator's), shown once; the old one stops working.
  await refund.getByRole("button", { name: "New link" }).click();
  const renew = page.getByRole("dialog");
  await expect(renew).toContainText("The link you sent before stops working");
  await renew.getByRole("button", { name: "Issue link" }).click();
  const shown = renew.getByTestId("claim-link-shown");
  await expect(shown).toBeVisible();
  const claimUrl = await shown.getByRole("textbox").inputValue();
  expect(claimUrl).toMatch(/\?k=[A-Za-z0-9_-]{43}$/);
  expect(claimUrl).not.toBe(firstUrl);
  await renew.getByRole("button", { name: "Copy link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(claimUrl);
  await capture(page, testInfo, "refund-new-link");
  await renew.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await page.content()).not.toContain(secretOf(claimUrl));

  // The payer, on a phone: the old link reads as no such page; the new one works, and the domain wallet sends it.
  const phone = await context.newPage();
  const phoneLogs = watchConsole(phone);
  await phone.setViewportSize({ width: 375, height: 800 });
  phoneLogs.ignore(/status of 404/); // the browser reports the page's own status line
  const old = await phone.goto(`${new URL(firstUrl).pathname}${new URL(firstUrl).search}&lang=en`);
  expect(old?.status()).toBe(404);
  await expect(phone.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await phone.goto(`${new URL(claimUrl).pathname}${new URL(claimUrl).search}&lang=en`);
  const destination = privateKeyToAccount(`0x${"6".repeat(64)}`).address;
  await phone.getByLabel("Your BNB Smart Chain (BEP-20) address").fill(destination);
  await phone.getByRole("button", { name: "Send my refund" }).click();
  await expect(phone.getByTestId("refund-status")).toHaveAttribute("data-status", "completed", { timeout: 45_000 });
  phoneLogs.assertClean();
  await phone.close();

  // The merchant's page says Refunded, where it went and the transaction; the list shows it in the row.
  await page.reload();
  await expect(refund).toHaveAttribute("data-status", "completed");
  await expect(refund).toContainText("Refunded");
  await expect(refund).toContainText("given by the payer");
  await expect(refund).toContainText("Transaction");
  await capture(page, testInfo, "payment-refunds");
  await page.goto("/dashboard/payments");
  await expect(page.locator(`tr[data-session-id="${session.sessionId}"] [data-refunds="refunded"]`)).toHaveText("Refunded 2 DUSD");
  logs.assertClean();
});

test("a fiat-priced payment refunds the tokens paid or a fiat amount at today's rate, previewed before confirming", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const [domain] = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data as {
    withdrawalAddress: Address;
  }[];
  if (!domain) throw new Error("a domain expected");
  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": merchant.key },
    data: { currency: "USD", amount: "25.00", tokens: [merchant.tokenId] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()).data as { sessionId: string; depositAddress: Address };
  await payDirectly(session.depositAddress, "25");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
  await payDirectly(domain.withdrawalAddress, "30");

  await signIn(page, merchant.email, merchant.password);
  await page.goto(`/dashboard/payments/${session.sessionId}`);
  const card = page.getByTestId("payment-refunds");
  await card.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog");
  // Tokens by default: the dialog as for any payment.
  await expect(dialog.getByLabel("The tokens paid (DUSD)")).toBeChecked();
  await expect(dialog.getByLabel("Amount", { exact: true })).toBeVisible();

  // Fiat: the whole price prefilled, its tokens today shown before confirming.
  await dialog.getByLabel("An amount in USD at today's rate").check();
  const fiatAmount = dialog.getByLabel("Amount in USD", { exact: true });
  await expect(fiatAmount).toHaveValue("25.00");
  const preview = dialog.getByTestId("refund-preview");
  await expect(preview).toContainText("The payer gets 25 DUSD for 25.00 USD.");
  await expect(preview).toContainText("At 1.00 USD per DUSD");
  await captureBothThemes(page, testInfo, "refunds-links-refund-dialog-fiat", { axeOnPhone: true });

  // More than the payment received, at today's rate: said under the field, nothing to confirm.
  const submit = dialog.getByRole("button", { name: "Create refund link" });
  await fiatAmount.fill("40");
  await expect(dialog.getByText("At most 25.00 USD at today's rate")).toBeVisible();
  await expect(submit).toBeDisabled();

  // A stale feed: no fiat refund now, said in the preview with a way out.
  await setDemoFeedRound(rpcUrl, DEMO_DUSD_USD_FEED, { answer: 100_000_000n, updatedAt: BigInt(Math.floor(Date.now() / 1000)) - 259_200n });
  try {
    await fiatAmount.fill("10");
    await expect(preview).toContainText("No refund in fiat right now: DUSD has no usable rate");
    await expect(submit).toBeDisabled();
    await captureBothThemes(page, testInfo, "refunds-links-refund-dialog-fiat-stale", { axeOnPhone: true });
  } finally {
    await setDemoFeedRound(rpcUrl, DEMO_DUSD_USD_FEED, { answer: 100_000_000n });
  }
  await preview.getByRole("button", { name: "Try again" }).click();
  await expect(preview).toContainText("The payer gets 10 DUSD for 10.00 USD.");
  await submit.click();
  await expect(dialog).toContainText("That is 10.00 USD at 1.00 USD per DUSD.");
  await dialog.getByRole("button", { name: "Done" }).click();
  const refund = card.locator("li[data-refund-id]");
  await expect(refund).toContainText("10.00 USD at 1.00 USD per DUSD");
  logs.assertClean();
});

test("a refund the domain wallet cannot pay yet waits for funds, says why, shows on the payer's page, and can be cancelled", async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  // Forwarded to the merchant's own wallet (the domain's payout address: a domain never paid takes
  // it at once): the domain's withdrawal wallet never receives it, and holds nothing. (merchantWallet
  // would need a key made with the owner's two-factor code, and this merchant signs in with none.)
  const [domain] = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data as { domainId: number }[];
  const payout = await request.patch(`/api/user/domains/${domain!.domainId}`, {
    headers: merchant.headers,
    data: { payoutAddress: privateKeyToAccount(`0x${"7".repeat(64)}`).address },
  });
  expect(payout.status(), await payout.text()).toBe(200);
  const session = await merchant.createPayment("3");
  await payDirectly(session.depositAddress, "3");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");

  await signIn(page, merchant.email, merchant.password);
  await page.goto(`/dashboard/payments/${session.sessionId}`);
  const card = page.getByTestId("payment-refunds");
  await card.getByRole("button", { name: "Refund" }).click();
  const dialog = page.getByRole("dialog");
  // Nothing was paid beyond the price: nothing prefilled, the merchant types the amount.
  await expect(dialog.getByLabel("Amount", { exact: true })).toHaveValue("");
  await expect(dialog.getByText(/Nothing was paid beyond the price/)).toBeVisible();
  await dialog.getByLabel("Amount", { exact: true }).fill("2");
  await dialog.getByLabel("Send to an address I have").check();
  await dialog.getByLabel("Payer's address").fill(payer);
  await dialog.getByRole("button", { name: "Send refund" }).click();
  await expect(dialog).toContainText("as soon as this payment's domain wallet can pay", { timeout: 30_000 });
  await dialog.getByRole("button", { name: "Done" }).click();

  const refund = card.locator("li[data-refund-id]");
  await expect(refund).toHaveAttribute("data-status", "awaiting_funds");
  await expect(refund).toContainText("Waiting for funds");
  await expect(refund.getByTestId("refund-awaiting-funds")).toContainText("will never receive this payment's tokens");
  await expect(card).toContainText("Up to 1 DUSD"); // it holds its amount while it waits
  await capture(page, testInfo, "refund-awaiting-funds");

  // Sent to an address the merchant gave, it has no claim link: its id alone opens no page (a claimed
  // refund waiting for funds shows on its payer's page: tests/e2e/payer-pages.spec.ts).
  const refundId = await refund.getAttribute("data-refund-id");
  const phone = await context.newPage();
  const phoneLogs = watchConsole(phone);
  phoneLogs.ignore(/status of 404/);
  expect((await phone.goto(`/refund/${refundId}?lang=en`))?.status()).toBe(404);
  await expect(phone.getByRole("heading", { name: "Page not found" })).toBeVisible();
  phoneLogs.assertClean();
  await phone.close();

  await refund.getByRole("button", { name: "Cancel this refund" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel refund" }).click();
  await expect(refund).toHaveAttribute("data-status", "cancelled");
  await expect(card).toContainText("Up to 3 DUSD");
  logs.assertClean();
});

test("a merchant creates a payment link, a payer pays it with a wallet, and the link counts it", async ({
  page,
  context,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  await signIn(page, merchant.email, merchant.password);

  // Empty: what links are for, and the button; Payment links in the sidebar after Payments.
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link").nth(2)).toHaveText("Payment links");
  await nav.getByRole("link", { name: "Payment links" }).click();
  await expect(page.getByRole("heading", { name: "No payment links yet" })).toBeVisible();
  await capture(page, testInfo, "links-empty");

  // New link: disabled until filled, a bad redirect refused in place, then the URL to copy.
  await page.getByRole("link", { name: "New link" }).click();
  const create = page.getByRole("button", { name: "Create link" });
  await expect(create).toBeDisabled();
  await page.getByLabel("Title").fill("Coffee beans, 1 kg");
  await page.getByLabel("Description (optional)").fill("Roasted this week");
  await page.getByLabel("Amount", { exact: true }).fill("3");
  await page.getByLabel("Redirect URL (optional)").fill("ftp://shop.example.com");
  await create.click();
  await expect(page.getByText("Must be an http(s) URL.")).toBeVisible();
  await capture(page, testInfo, "links-new");
  await page.getByLabel("Redirect URL (optional)").fill("");
  await create.click();
  const done = page.getByTestId("link-created");
  await expect(done).toContainText("Coffee beans, 1 kg");
  const url = await page.getByLabel(/Payment link: share it/).inputValue();
  expect(url).toMatch(/\/l\/[A-Za-z0-9_-]{12}$/);
  await done.getByRole("button", { name: "Copy link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  // A second link, where the payer chooses (over the API: the form's other path is the same action).
  await request.post("/api/user/payment-links", {
    headers: merchant.headers,
    data: { title: "Tip jar", tokenId: merchant.tokenId, minAmount: "5" },
  });

  // A payer opens it and pays with a browser wallet.
  const shopper = await context.newPage();
  const shopperLogs = watchConsole(shopper);
  await injectWallet(shopper, { account: payer });
  await shopper.goto(`${new URL(url).pathname}?lang=en`);
  await shopper.getByRole("button", { name: "Pay", exact: true }).click();
  await shopper.waitForURL(/\/pay\/[0-9a-f-]{36}\?lang=en$/);
  await shopper.getByRole("button", { name: "Pay 3 DUSD with Test Wallet" }).click();
  await expect(shopper.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  shopperLogs.assertClean();
  await shopper.close();

  // The links page counts it.
  await done.getByRole("link", { name: "All links" }).click();
  await expect(page).toHaveURL(/\/dashboard\/links$/);
  const coffee = page.locator("tr[data-link-id]", { hasText: "Coffee beans, 1 kg" });
  const tips = page.locator("tr[data-link-id]", { hasText: "Tip jar" });
  await expect(async () => {
    await page.reload();
    await expect(coffee.getByTestId("link-payments")).toHaveText("1", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(coffee).toContainText("3 DUSD");
  await expect(tips).toContainText("From 5 DUSD (payer chooses)");
  await expect(tips).toContainText("Active");

  // Row actions: deactivate, edit, the link's payments.
  await tips.getByRole("button", { name: "Actions for Tip jar" }).click();
  await page.getByRole("menuitem", { name: "Deactivate" }).click();
  await expect(tips.locator("[data-active]").filter({ visible: true })).toHaveText("Inactive");
  await coffee.getByRole("button", { name: "Actions for Coffee beans, 1 kg" }).click();
  await page.getByRole("menuitem", { name: "Edit" }).click();
  const edit = page.getByRole("dialog");
  await expect(edit.getByLabel("Amount", { exact: true })).toHaveValue("3");
  await edit.getByLabel("Title").fill("Coffee beans, 1 kg (whole)");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.locator("tr[data-link-id]", { hasText: "Coffee beans, 1 kg (whole)" })).toBeVisible();
  await capture(page, testInfo, "links");

  await coffee.getByRole("button", { name: /^Actions for Coffee beans/ }).click();
  await page.getByRole("menuitem", { name: "View payments" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments\?linkId=\d+$/);
  await expect(page.getByTestId("link-filter")).toContainText("Link: Coffee beans, 1 kg (whole)");
  const rows = page.locator("tr[data-session-id]");
  await expect(rows).toHaveCount(1);
  // The Order column: the link's title, as the session's description.
  await expect(rows.first().locator("td").nth(1)).toHaveText("Coffee beans, 1 kg");
  await capture(page, testInfo, "payments-by-link");
  await page.getByRole("link", { name: "Remove the payment link filter" }).click();
  await expect(page.getByTestId("link-filter")).toHaveCount(0);
  // The payment's page names the link that created it.
  await page.locator("a[data-row-link]").first().click();
  await expect(page.getByTestId("payment-details")).toContainText("Payment link “Coffee beans, 1 kg (whole)”");
  logs.assertClean();
});

test("a busy payment link says so in the payer's language; the server knows its client from the socket", async ({
  page,
  request,
}, testInfo) => {
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const created = await request.post("/api/user/payment-links", {
    headers: merchant.headers,
    data: { title: "Concert tickets", tokenId: merchant.tokenId, amount: "2" },
  });
  const { slug } = (await created.json()).data as { slug: string };
  const logs = watchConsole(page);
  logs.ignore(/status of 429/);
  // What Pay answers while the link has its cap of open payments (tests/integration/link-pay-limits.test.ts drives the real one).
  await page.route("**/api/links/*/pay", (route) =>
    route.fulfill({
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "30" },
      body: JSON.stringify({
        success: false,
        error: { code: "RATE_LIMITED", message: "this payment link is busy (100 payments open); try again in 30 s" },
      }),
    }),
  );
  await page.goto(`/l/${slug}?lang=en`);
  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("link-busy")).toHaveText(/This payment link is busy.*Please try again in a minute\./);
  await expect(page.getByRole("button", { name: "Pay", exact: true })).toBeEnabled();
  await capture(page, testInfo, "link-busy");
  await page.goto(`/l/${slug}?lang=zh`);
  await page.getByRole("button", { name: "支付", exact: true }).click();
  await expect(page.getByTestId("link-busy")).toContainText("此付款链接暂时无法使用");
  logs.assertClean();

  // The client is the socket's peer (stamped by instrumentation.ts): this loopback client reads
  // /api/metrics without a token whatever it writes into X-Forwarded-For or the stamp's header.
  const metrics = await request.get("/api/metrics", {
    headers: { "x-forwarded-for": "203.0.113.9", "x-bsc-pay-peer": "forged 203.0.113.9" },
  });
  expect(metrics.status()).toBe(200);
});
