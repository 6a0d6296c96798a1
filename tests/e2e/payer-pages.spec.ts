import { type APIRequestContext, expect, test } from "@playwright/test";
import { type Address, erc20Abi, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS, DEMO_TOKEN_ADDRESS } from "../../lib/engine/dev/demo-token";
import { PAYER_PAGE_MESSAGES } from "../../lib/web/i18n/refund-messages";
import { chain, moneyKey, payDirectly } from "./helpers/merchant";
import { captureBothThemes, watchConsole } from "./helpers/pages";
import { injectWallet } from "./helpers/wallet";

/**
 * The payer's refund and link pages (docs/design.md §19): a refund claimed on a 375 px phone arrives where the payer said,
 * and a payment link paid with a browser wallet counts in the link's figures. Every state in
 * both themes at 1280 and 375 px, through axe.
 */

const payer = privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]!).address;

const capture = captureBothThemes;

/** A merchant set up over the API: starter plan, the demo token, shop.example.com, two-factor on and an API key with every scope. */
async function payerPagesMerchant(request: APIRequestContext) {
  const email = `payer-pages-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "correct horse battery";
  await request.post("/api/user/register", { data: { email, password } });
  const { token } = (await (await request.post("/api/user/token", { data: { email, password } })).json()).data;
  const bearer = { authorization: `Bearer ${token}` };
  await request.post("/api/user/package", { headers: bearer, data: { plan: "starter" } });
  const { tokenId } = (
    await (
      await request.post("/api/user/tokens", { headers: bearer, data: { contractAddress: DEMO_TOKEN_ADDRESS, network: "local" } })
    ).json()
  ).data;
  const domain = (await (await request.post("/api/user/domains", { headers: bearer, data: { domain: "https://shop.example.com" } })).json())
    .data;
  // Refunds and merchantWallet need a key that can send money out: made with the merchant's two-factor code.
  const money = await moneyKey(request, { headers: bearer, password });
  const key = money.key;
  return {
    key,
    bearer: money.headers,
    tokenId: tokenId as number,
    withdrawalAddress: domain.withdrawalAddress as Address,
    async createPayment(amount: string, extra: Record<string, unknown> = {}) {
      const res = await request.post("/api/v1/payment/create", { headers: { "x-api-key": key }, data: { tokenId, amount, ...extra } });
      expect(res.status()).toBe(201);
      return (await res.json()).data as { sessionId: string; depositAddress: Address };
    },
    async status(sessionId: string) {
      return (await (await request.get(`/api/v1/payment/${sessionId}/status`, { headers: { "x-api-key": key } })).json()).data;
    },
  };
}

/** The claim link with the page's language: its secret (`k`) stays in the query. */
const claimPath = (claimUrl: string, lang: string) => {
  const url = new URL(claimUrl);
  url.searchParams.set("lang", lang);
  return `${url.pathname}${url.search}`;
};

const balanceOf = (owner: Address) =>
  chain.readContract({ address: DEMO_TOKEN_ADDRESS, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

test("a payer claims a refund on a phone: gives an address, and it arrives there", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await payerPagesMerchant(request);
  const session = await merchant.createPayment("10", { orderId: "ORD-77", description: "Two mugs" });
  await payDirectly(session.depositAddress, "12");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
  // The domain's withdrawal wallet pays refunds: the merchant keeps tokens there.
  await payDirectly(merchant.withdrawalAddress, "5");

  const created = await request.post(`/api/v1/payment/${session.sessionId}/refund`, { headers: { "x-api-key": merchant.key }, data: {} });
  expect(created.status()).toBe(201);
  const refund = (await created.json()).data as { refundId: string; claimUrl: string; amount: string };
  expect(refund.amount).toBe("2");

  expect(refund.claimUrl).toMatch(/\?k=[A-Za-z0-9_-]{43}$/);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(claimPath(refund.claimUrl, "en"));
  await expect(page.getByText("Refund from shop.example.com")).toBeVisible();
  await expect(page.getByTestId("refund-amount")).toHaveText("2 DUSD");
  await expect(page.getByText("Order ORD-77")).toBeVisible();
  // The sender is a hint with a warning, and nothing is filled in for the payer.
  await expect(page.getByText("The payment came from this address:")).toBeVisible();
  await expect(page.getByLabel("Your BNB Smart Chain (BEP-20) address")).toHaveValue("");
  await expect(page.getByRole("button", { name: "Send my refund" })).toBeDisabled();
  await capture(page, testInfo, "refund-claim");

  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByLabel("Your BNB Smart Chain (BEP-20) address").fill("0x1234");
  await page.getByRole("button", { name: "Send my refund" }).click();
  await expect(page.getByText("Enter a BNB Smart Chain address: 0x followed by 40 characters.")).toBeVisible();

  const destination = privateKeyToAccount(`0x${"5".repeat(64)}`).address;
  await page.getByLabel("Your BNB Smart Chain (BEP-20) address").fill(destination);
  await page.getByRole("button", { name: "Send my refund" }).click();
  await expect(page.getByTestId("refund-status")).toHaveAttribute("data-status", /sending|completed/);
  await expect(page.getByTestId("refund-status")).toHaveAttribute("data-status", "completed", { timeout: 45_000 });
  await expect(page.getByText("Refund sent")).toBeVisible();
  expect(await balanceOf(destination)).toBe(parseUnits("2", 18));
  // Once sent, the payer reads its transaction, whole, and when it went out.
  await expect(page.getByTestId("refund-tx-hash")).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(page.getByTestId("refund-sent-at")).toHaveText(/\d{4}/);
  await capture(page, testInfo, "refund-completed");

  // The shop sees it the same way.
  const read = await request.get(`/api/v1/refund/${refund.refundId}`, { headers: { "x-api-key": merchant.key } });
  const seen = (await read.json()).data;
  expect(seen).toMatchObject({ status: "completed", toAddress: destination, addressFrom: "payer" });
  await expect(page.getByTestId("refund-tx-hash")).toHaveText(seen.txHash);
  logs.assertClean();
});

test("a claim the shop's wallet cannot pay yet waits: the payer reads, in their language, that it goes out by itself", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await payerPagesMerchant(request);
  // Forwarded elsewhere: without a payout address the payment would be swept into the withdrawal wallet.
  const session = await merchant.createPayment("3", { merchantWallet: privateKeyToAccount(`0x${"7".repeat(64)}`).address });
  await payDirectly(session.depositAddress, "3");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
  // Nothing in the domain's withdrawal wallet: the claim is kept, waiting for the funds.
  const created = await request.post(`/api/v1/payment/${session.sessionId}/refund`, {
    headers: { "x-api-key": merchant.key },
    data: { amount: "3" },
  });
  const refund = (await created.json()).data as { refundId: string; claimUrl: string };
  const destination = privateKeyToAccount(`0x${"6".repeat(64)}`).address;

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(claimPath(refund.claimUrl, "ru"));
  await page.getByLabel(PAYER_PAGE_MESSAGES.ru.addressLabel).fill(destination);
  await page.getByRole("button", { name: PAYER_PAGE_MESSAGES.ru.submit }).click();
  const status = page.getByTestId("refund-status");
  await expect(status).toHaveAttribute("data-status", "awaiting_funds");
  await expect(status).toContainText(PAYER_PAGE_MESSAGES.ru.awaitingFundsTitle);
  await expect(status).toContainText(destination);
  // Another language, read again from the server; never the merchant's internals.
  await page.goto(claimPath(refund.claimUrl, "zh"));
  await expect(status).toContainText(PAYER_PAGE_MESSAGES.zh.awaitingFundsBody);
  await expect(page.getByText(/base units|withdrawal wallet|forwarded/)).toHaveCount(0);
  await page.goto(claimPath(refund.claimUrl, "en"));
  await expect(status).toContainText("Your refund is waiting to be sent");
  await capture(page, testInfo, "refund-awaiting-funds");
  const read = await request.get(`/api/v1/refund/${refund.refundId}`, { headers: { "x-api-key": merchant.key } });
  expect((await read.json()).data).toMatchObject({
    status: "awaiting_funds",
    toAddress: destination,
    reason: expect.stringContaining("will never receive this payment's tokens"),
  });
  logs.assertClean();
});

test("a claim link with a wrong or no secret reads exactly as a refund that does not exist", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  logs.ignore(/status of 404/); // the browser reports each page's own status line
  const merchant = await payerPagesMerchant(request);
  const session = await merchant.createPayment("3", { orderId: "ORD-78" });
  await payDirectly(session.depositAddress, "4");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 30_000 }).toBe("completed");
  const created = await request.post(`/api/v1/payment/${session.sessionId}/refund`, { headers: { "x-api-key": merchant.key }, data: {} });
  const refund = (await created.json()).data as { refundId: string; claimUrl: string };

  const texts: string[] = [];
  for (const path of [
    `/refund/${refund.refundId}?k=${"x".repeat(43)}&lang=en`, // the right refund, a made-up secret
    `/refund/${refund.refundId}?lang=en`, // the id alone, as the links before secrets
    `/refund/0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e?k=${new URL(refund.claimUrl).searchParams.get("k")}&lang=en`, // the secret, another id
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByText(/ORD-78|refund/i)).toHaveCount(0);
    texts.push(await page.locator("main").innerText());
  }
  expect(new Set(texts).size).toBe(1);
  await page.goto(`/refund/${refund.refundId}?lang=en`);
  await captureBothThemes(page, testInfo, "refund-wrong-secret");
  // The real link still works.
  await page.goto(claimPath(refund.claimUrl, "en"));
  await expect(page.getByText("Order ORD-78")).toBeVisible();
  logs.assertClean();
});

test("a payer opens a payment link, pays with a browser wallet, and the link counts it", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  const merchant = await payerPagesMerchant(request);
  const created = await request.post("/api/user/payment-links", {
    headers: merchant.bearer,
    data: { title: "Coffee beans, 1 kg", description: "Roasted this week", tokenId: merchant.tokenId, amount: "3" },
  });
  expect(created.status()).toBe(201);
  const link = (await created.json()).data as { linkId: number; url: string };

  await injectWallet(page, { account: payer });
  await page.goto(`${new URL(link.url).pathname}?lang=en`);
  await expect(page.getByRole("heading", { name: "Coffee beans, 1 kg" })).toBeVisible();
  await expect(page.getByTestId("link-amount")).toHaveText("3 DUSD");
  await capture(page, testInfo, "payment-link");

  await page.getByRole("button", { name: "Pay", exact: true }).click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}\?lang=en$/);
  await page.getByRole("button", { name: "Pay 3 DUSD with Test Wallet" }).click();
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });

  await expect
    .poll(
      async () => (await (await request.get(`/api/user/payment-links/${link.linkId}`, { headers: merchant.bearer })).json()).data.stats,
      {
        timeout: 15_000,
      },
    )
    .toMatchObject({ payments: 1, received: "3" });

  // Deactivated, the same page says so and offers nothing to pay.
  await request.delete(`/api/user/payment-links/${link.linkId}`, { headers: merchant.bearer });
  await page.goto(`${new URL(link.url).pathname}?lang=vi`);
  await expect(page.getByText("Liên kết thanh toán này không còn hoạt động")).toBeVisible();
  await expect(page.getByRole("button", { name: "Thanh toán" })).toHaveCount(0);
  await capture(page, testInfo, "payment-link-inactive");
  logs.assertClean();
});
