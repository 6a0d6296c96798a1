import { createServer, type Server } from "node:http";
import { expect, type Page, test } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { decodeFunctionData, erc20Abi, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { NATIVE_TOKEN } from "../../lib/engine/chain/native";
import { ANVIL_DEFAULT_KEYS, DEMO_TOKEN_ADDRESS } from "../../lib/engine/dev/demo-token";
import { apiMerchant, payDirectly } from "./helpers/merchant";
import { captureBothThemes, expectAccessible, screenshot, watchConsole } from "./helpers/pages";
import { injectWallet } from "./helpers/wallet";

/**
 * The hosted checkout as a payer sees it: paying with a browser wallet (an injected EIP-1193
 * provider backed by anvil), partial payments, a rejected request, every state in two languages,
 * and the embed on a shop's page.
 */
const payer = privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]!).address;

async function qrPayload(page: Page): Promise<string> {
  const src = await page.getByRole("img", { name: /QR/ }).getAttribute("src");
  const png = PNG.sync.read(Buffer.from(src!.split(",")[1]!, "base64"));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)!.data;
}

test("a payer pays with a browser wallet: connect, switch chain, transfer, paid — without reloading", async ({ page, request }) => {
  test.setTimeout(90_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("25", { redirectUrl: "https://shop.example.com/thanks" });
  await injectWallet(page, { account: payer });
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await expect(page.getByRole("status").first()).toContainText("Waiting for your payment");
  await page.route("https://shop.example.com/**", (route) => route.fulfill({ body: "<h1>Thanks</h1>", contentType: "text/html" }));

  await page.getByRole("button", { name: "Pay 25 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { __walletCalls: string[] }).__walletCalls)).toContain(
    "wallet_switchEthereumChain",
  );
  expect(
    await page.evaluate(() =>
      (window as unknown as { ethereum: { request: (a: { method: string }) => Promise<string> } }).ethereum.request({
        method: "eth_chainId",
      }),
    ),
  ).toBe("0x7a69");
  await expect(page.getByText(/Returning to the shop in \d s/)).toBeVisible();
  await page.waitForURL("https://shop.example.com/thanks", { timeout: 10_000 });
  expect((await merchant.status(session.sessionId)).status).toBe("completed");
  logs.assertClean();
});

test("a price in money: the price, the token picker with its rate, the wallet paying the chosen token", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": merchant.key },
    data: { currency: "USD", amount: "25.00", description: "1 × Espresso machine descaler" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()).data as { sessionId: string; depositAddress: string };
  await injectWallet(page, { account: payer });
  await page.goto(`/pay/${session.sessionId}?lang=en`);

  await expect(page.getByTestId("amount")).toHaveText("25.00 USD");
  await expect(page.getByTestId("token-amount")).toHaveText("25 DUSD");
  // The demo chain offers one token (DUSD, its USD feed at 1.00): the picker shows it, checked.
  const picker = page.getByRole("radiogroup", { name: "Pay with" });
  const dusd = picker.getByRole("radio", { name: /DUSD/ });
  await expect(dusd).toBeChecked();
  await expect(picker).toContainText("25 DUSD");
  await expect(picker).toContainText("1 DUSD = 1.00 USD");
  await expect(picker.getByTestId("off-peg")).toHaveCount(0);
  // One countdown on the page (the status block's): the picker only says the rates hold until then.
  await expect(page.getByTestId("rates-locked")).toHaveText("Rates locked until the payment expires");
  // The gateway's default takes the whole price: no terms to state.
  await expect(page.getByTestId("underpay-terms")).toHaveCount(0);
  // Keyboard: Tab reaches the group's checked radio; arrows stay within the group.
  await dusd.focus();
  await page.keyboard.press("ArrowDown");
  await expect(dusd).toBeFocused();
  await expect(dusd).toBeChecked();
  await dusd.blur(); // the screenshots show the picker at rest
  await captureBothThemes(page, testInfo, "checkout-fiat-picker", { axeOnPhone: true });

  // The choice, over the page's own route: the session then says the token was chosen, and the view follows it.
  const chosen = await request.post(`/api/checkout/${session.sessionId}/token`, { data: { tokenId: merchant.tokenId } });
  expect(chosen.status()).toBe(200);
  expect((await chosen.json()).data).toMatchObject({
    token: "DUSD",
    amount: "25",
    fiat: { currency: "USD", fiatAmount: "25.00", tokenChosen: true },
  });
  const refused = await request.post(`/api/checkout/${session.sessionId}/token`, { data: { tokenId: merchant.tokenId + 100_000 } });
  expect((await refused.json()).error.reason).toBe("token-not-offered");

  await page.getByRole("button", { name: "Pay 25 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("token-picker")).toHaveCount(0);
  await expect(page.getByTestId("receipt-price")).toHaveText("25.00 USD");
  // An ERC-20 transfer of the chosen token's quoted amount to the session's address.
  const [sent] = await page.evaluate(() => (window as unknown as { __walletSends: { to: string; data: Hex }[] }).__walletSends);
  expect(sent!.to.toLowerCase()).toBe(DEMO_TOKEN_ADDRESS.toLowerCase());
  const call = decodeFunctionData({ abi: erc20Abi, data: sent!.data });
  expect(call.functionName).toBe("transfer");
  expect(call.args).toEqual([expect.stringMatching(new RegExp(`^${session.depositAddress}$`, "i")), 25n * 10n ** 18n]);
  expect(await merchant.status(session.sessionId)).toMatchObject({ status: "completed", currency: "USD", fiatAmount: "25.00" });
  await screenshot(page, testInfo, "checkout-fiat-paid");
  logs.assertClean();
});

test("a price in money whose domain accepts a shortfall: the page states the terms, in the payer's language", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const [domain] = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data as { domainId: number }[];
  const saved = await request.patch(`/api/user/domains/${domain!.domainId}`, { headers: merchant.headers, data: { fiatUnderpayBps: 50 } });
  expect(saved.status(), await saved.text()).toBe(200);
  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": merchant.key },
    data: { currency: "USD", amount: "25.00", domainId: domain!.domainId, description: "2 × Filter papers" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()).data as { sessionId: string };

  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await expect(page.getByTestId("underpay-terms")).toHaveText("Payments up to 0.5% short of the price are accepted.");
  await captureBothThemes(page, testInfo, "checkout-fiat-terms", { axeOnPhone: true });
  await page.goto(`/pay/${session.sessionId}?lang=ru`);
  await expect(page.getByTestId("underpay-terms")).toHaveText("Платёж меньше цены не более чем на 0,5 % тоже принимается.");
  await page.goto(`/pay/${session.sessionId}?lang=zh`);
  await expect(page.getByTestId("underpay-terms")).toHaveText("付款金额少于价格时，差额在 0.5% 以内仍会被接收。");
  await screenshot(page, testInfo, "checkout-fiat-terms-zh");
  logs.assertClean();
});

test("a price in money paid in BNB itself: the picker offers BNB at its feed's rate, the wallet sends the value", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const registered = await request.post("/api/user/tokens", {
    headers: merchant.headers,
    data: { contractAddress: NATIVE_TOKEN, network: "local" },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": merchant.key },
    data: { currency: "USD", amount: "25.00" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()).data as { sessionId: string; depositAddress: string };
  await injectWallet(page, { account: payer });
  await page.goto(`/pay/${session.sessionId}?lang=en`);

  // The demo's BNB/USD feed answers 600.00: 25 USD is 0.041666… BNB, rounded up to the wei.
  const picker = page.getByRole("radiogroup", { name: "Pay with" });
  const bnb = picker.getByRole("radio", { name: /BNB/ });
  await expect(picker).toContainText("0.041666666666666667 BNB");
  await expect(picker).toContainText("1 BNB = 600.00 USD");
  await picker.locator('[data-token="BNB"]').click(); // the option's label: the radio itself is visually hidden
  await expect(bnb).toBeChecked();
  await expect(page.getByTestId("token-amount")).toHaveText("0.041666666666666667 BNB");
  await expect(page.getByTestId("network-warning")).toContainText("This order takes only BNB or DUSD on Local test chain.");
  await bnb.blur();
  await captureBothThemes(page, testInfo, "checkout-fiat-bnb", { axeOnPhone: true });

  await page.getByRole("button", { name: "Pay 0.041666666666666667 BNB with Test Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  // A plain payment of the quoted wei to the session's address: no contract, no call data.
  const [sent] = await page.evaluate(
    () => (window as unknown as { __walletSends: { to: string; value?: Hex; data?: Hex }[] }).__walletSends,
  );
  expect(sent!.to.toLowerCase()).toBe(session.depositAddress.toLowerCase());
  expect(BigInt(sent!.value!)).toBe(41_666_666_666_666_667n);
  expect(sent!.data ?? "0x").toBe("0x");
  expect(await merchant.status(session.sessionId)).toMatchObject({
    status: "completed",
    currency: "USD",
    fiatAmount: "25.00",
    paidToken: "BNB",
    paidAmount: "0.041666666666666667",
  });
  logs.assertClean();
});

test("after a partial payment the QR code, the wallet link and the wallet button ask for the rest", async ({ page, request }) => {
  test.setTimeout(90_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("10");
  await injectWallet(page, { account: payer });
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  expect(await qrPayload(page)).toContain("uint256=10000000000000000000");

  await payDirectly(session.depositAddress, "4");
  await expect(page.getByTestId("partial")).toHaveText("Received 4 of 10 DUSD — send 6 more", { timeout: 20_000 });
  await expect(page.getByTestId("remaining-amount")).toHaveText("6 DUSD");
  await expect.poll(() => qrPayload(page)).toContain("uint256=6000000000000000000");
  await expect(page.getByTestId("payment-uri")).toHaveAttribute("href", /uint256=6000000000000000000$/);
  const button = page.getByRole("button", { name: "Pay 6 DUSD with Test Wallet" });
  await expect(button).toBeVisible();
  await button.click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  expect(await merchant.status(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "10" });
  // The limit leaves room for the deposit address being swept meanwhile (crediting an empty balance costs more).
  const [sent] = await page.evaluate(() => (window as unknown as { __walletSends: { gas?: string }[] }).__walletSends);
  expect(Number(BigInt(sent!.gas!))).toBeGreaterThan(60_000);
  logs.assertClean();
});

test("when its status stream is refused (too many open, 429) the page polls and still shows the payment", async ({ page, request }) => {
  test.setTimeout(90_000);
  const logs = watchConsole(page);
  logs.ignore(/status of 429/);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("3");
  let refused = 0;
  await page.route("**/api/checkout/*/events", (route) => {
    refused++;
    return route.fulfill({
      status: 429,
      headers: { "retry-after": "10", "content-type": "application/json" },
      body: JSON.stringify({ success: false, error: { code: "RATE_LIMITED", message: "too many open status streams" } }),
    });
  });
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await expect.poll(() => refused).toBeGreaterThan(0);
  await payDirectly(session.depositAddress, "3");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  expect(refused).toBe(1); // refused once, the browser does not hammer it: polling took over
  logs.assertClean();
});

test("a transfer that fails on the chain says nothing was sent, and can be retried", async ({ page, request }) => {
  test.setTimeout(90_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("3");
  await injectWallet(page, { account: payer, starveSends: 1 });
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await page.getByRole("button", { name: "Pay 3 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The transaction failed on the chain, so no tokens were sent" })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole("button", { name: "Try again" }).click();
  await page.getByRole("button", { name: "Pay 3 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  expect(await merchant.status(session.sessionId)).toMatchObject({ status: "completed", receivedAmount: "3" });
  logs.assertClean();
});

test("a request rejected in the wallet shows why and can be retried", async ({ page, request }) => {
  test.setTimeout(90_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("3");
  await injectWallet(page, { account: payer, rejectSends: 1 });
  await page.goto(`/pay/${session.sessionId}?lang=en`);
  await page.getByRole("button", { name: "Pay 3 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "rejected" })).toContainText("The request was rejected in your wallet.");
  await page.getByRole("button", { name: "Try again" }).click();
  await page.getByRole("button", { name: "Pay 3 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });
  logs.assertClean();
});

// Every state in six languages, on a phone and a desktop, both themes, through axe: checkout-trust.spec.ts.
// Here: the figures as Spanish writes them, the overpaid note, and the page for an unknown session.
test("Spanish figures, the overpaid note and an unknown session's page", async ({ page, request }, testInfo) => {
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const pending = await merchant.createPayment("1234.5");
  const partial = await merchant.createPayment("10");
  await payDirectly(partial.depositAddress, "2.5");
  const completed = await merchant.createPayment("5");
  await payDirectly(completed.depositAddress, "5.5");
  await expect.poll(async () => (await merchant.status(partial.sessionId)).receivedAmount, { timeout: 20_000 }).toBe("2.5");
  await expect.poll(async () => (await merchant.status(completed.sessionId)).status, { timeout: 20_000 }).toBe("completed");
  await page.goto(`/pay/${partial.sessionId}?lang=es`);
  await expect(page.getByTestId("partial")).toHaveText("Recibido 2,5 de 10 DUSD: envía 7,5 más");
  await page.goto(`/pay/${pending.sessionId}?lang=es`);
  await expect(page.getByTestId("amount")).toHaveText("1.234,5 DUSD");
  await page.goto(`/pay/${completed.sessionId}?lang=en`);
  await expect(page.getByText("You sent 0.5 DUSD more than asked.")).toBeVisible();
  logs.ignore(/Failed to load resource: the server responded with a status of 404/); // the not-found state is a 404 page
  for (const lang of ["en", "es"]) {
    await page.goto(`/pay/${crypto.randomUUID()}?lang=${lang}`);
    await expect(page.locator("h1").first()).toBeVisible();
    await expectAccessible(page, `checkout not found (${lang})`);
    await screenshot(page, testInfo, `checkout-not-found-${lang}`);
  }
  logs.assertClean();
});

test("the language follows Accept-Language, and the switcher changes it", async ({ browser }) => {
  const context = await browser.newContext({ locale: "vi-VN", extraHTTPHeaders: { "accept-language": "vi-VN,vi;q=0.9,en;q=0.5" } });
  const page = await context.newPage();
  const merchant = await apiMerchant(page.request, ["https://shop.example.com"]);
  const session = await merchant.createPayment("2");
  await page.goto(`/pay/${session.sessionId}`);
  await expect(page.getByText("Đang chờ thanh toán của bạn")).toBeVisible();
  await page.getByRole("combobox", { name: "Ngôn ngữ" }).selectOption("ru");
  await expect(page.getByText("Ожидаем вашу оплату")).toBeVisible();
  await page.goto(`/pay/${session.sessionId}`); // the choice is remembered
  await expect(page.getByText("Ожидаем вашу оплату")).toBeVisible();
  await context.close();
});

// The shops are real little servers on other loopback ports (other origins than the gateway's).
// Chromium lets a page load a script from a loopback address only if the page itself came from one.
function shopServer(port: number, html: () => string): Promise<Server> {
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html()));
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

const SHOP = "http://localhost:4107";
for (const [name, origin, whitelisted] of [
  ["a whitelisted shop receives the outcome by postMessage", SHOP, true],
  ["a page on another origin cannot even show it", "http://localhost:4108", false],
] as const) {
  test(`embedded checkout: ${name}`, async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const merchant = await apiMerchant(request, [SHOP]);
    const session = await merchant.createPayment("4");
    const server = await shopServer(
      Number(new URL(origin).port),
      () => `<!doctype html><html lang="en"><head><title>Shop</title><script src="${baseURL}/checkout.js"></script></head>
          <body><h1>Shop</h1><button id="pay">Pay</button><script>
            window.__messages = []; window.__completed = null;
            window.addEventListener("message", (e) => window.__messages.push(e.data));
            document.getElementById("pay").onclick = () => BscPay.open(${JSON.stringify(session.sessionId)}, { onCompleted: (d) => (window.__completed = d) });
          </script></body></html>`,
    );
    try {
      const logs = watchConsole(page);
      // The embed may be framed by the merchant's whitelisted origins only (CSP frame-ancestors).
      const embedHeaders = (await request.get(`/pay/${session.sessionId}?embed=1`)).headers();
      expect(embedHeaders["content-security-policy"]).toContain(`frame-ancestors ${SHOP}`);
      expect((await request.get(`/pay/${session.sessionId}`)).headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
      await page.goto(`${origin}/checkout`);
      await expect.poll(() => page.evaluate(() => typeof (window as unknown as { BscPay?: unknown }).BscPay)).toBe("object");
      if (!whitelisted) logs.ignore(/frame-ancestors/);
      await page.getByRole("button", { name: "Pay" }).click();
      const frame = page.frameLocator('iframe[title="BSC Pay checkout"]');
      if (!whitelisted) {
        // The browser refuses to render the checkout inside a page the merchant did not whitelist.
        await page.waitForTimeout(3_000);
        await expect(frame.getByTestId("amount")).toHaveCount(0);
        logs.assertClean();
        return;
      }
      await expect(frame.getByTestId("amount")).toHaveText("4 DUSD");
      await payDirectly(session.depositAddress, "4");
      await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
      await expect(frame.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 10_000 });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { __completed: { status: string } | null }).__completed?.status), {
          timeout: 10_000,
        })
        .toBe("completed");
      logs.assertClean();
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
}
