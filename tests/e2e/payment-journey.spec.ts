import { expect, test } from "@playwright/test";
import { type Address, createPublicClient, createWalletClient, defineChain, erc20Abi, http, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS, DEMO_TOKEN_ADDRESS } from "../../lib/engine/dev/demo-token";
import { moneyKey } from "./helpers/merchant";

/**
 * The whole product over HTTP against `npm start` with its embedded chain: a merchant sets up,
 * a shop creates a payment, a payer pays from another account, the status turns completed and
 * the funds land in the merchant's wallet.
 */
const rpcUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3107) + 10_000}`;
const local = defineChain({
  id: 31337,
  name: "local",
  nativeCurrency: { name: "BNB", symbol: "BNB", decimals: 18 },
  rpcUrls: { default: { http: [rpcUrl] } },
});
const chain = createPublicClient({ chain: local, transport: http(rpcUrl) });
const MERCHANT_WALLET = "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199" as Address;
const balanceOf = (owner: Address) =>
  chain.readContract({ address: DEMO_TOKEN_ADDRESS, abi: erc20Abi, functionName: "balanceOf", args: [owner] });

test("create → pay from another account → completed, merchant credited, deposit address emptied", async ({ request, page }) => {
  test.setTimeout(90_000);
  const email = `journey-${Date.now()}@example.com`;
  const password = "correct horse battery";
  await request.post("/api/user/register", { data: { email, password } });
  const { token } = (await (await request.post("/api/user/token", { data: { email, password } })).json()).data;
  const headers = { authorization: `Bearer ${token}` };
  await request.post("/api/user/package", { headers, data: { plan: "starter" } });
  const { tokenId } = (
    await (await request.post("/api/user/tokens", { headers, data: { contractAddress: DEMO_TOKEN_ADDRESS, network: "local" } })).json()
  ).data;
  await request.post("/api/user/domains", { headers, data: { domain: "https://shop.example.com" } });
  // merchantWallet needs the payouts scope, which a key gets only with its maker's two-factor code.
  const { key } = await moneyKey(request, { headers, password });

  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": key },
    data: { tokenId, amount: "42.5", merchantWallet: MERCHANT_WALLET },
  });
  expect(created.status()).toBe(201);
  const session = (await created.json()).data;
  expect(session).toMatchObject({ status: "pending", amount: "42.5", token: "DUSD" });
  const before = await balanceOf(MERCHANT_WALLET);

  // The payer's hosted checkout page.
  await page.goto(new URL(session.checkoutUrl).pathname);
  await expect(page.getByTestId("amount")).toHaveText("42.5 DUSD");
  await expect(page.getByTestId("deposit-address")).toHaveText(session.depositAddress);
  await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Waiting for your payment");

  const payer = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!), chain: local, transport: http(rpcUrl) });
  const txHash = await payer.writeContract({
    address: DEMO_TOKEN_ADDRESS,
    abi: erc20Abi,
    functionName: "transfer",
    args: [session.depositAddress, parseUnits("42.5", 18)],
  });

  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/v1/payment/${session.sessionId}/status`, { headers: { "x-api-key": key } })).json()).data.status,
      {
        timeout: 30_000,
        intervals: [500],
      },
    )
    .toBe("completed");
  const status = (await (await request.get(`/api/v1/payment/${session.sessionId}/status`, { headers: { "x-api-key": key } })).json()).data;
  expect(status).toMatchObject({ status: "completed", receivedAmount: "42.5", txHash });

  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: "test-results/checkout-paid.png" });

  await expect.poll(() => balanceOf(MERCHANT_WALLET), { timeout: 30_000, intervals: [500] }).toBe(before + parseUnits("42.5", 18));
  expect(await balanceOf(session.depositAddress)).toBe(0n);

  const health = await (await request.get("/api/health")).json();
  expect(health.chains.local.cursor).toBeGreaterThan(0);
  expect(health.chains.local.lag).toBeLessThanOrEqual(5);
  expect(health.jobs).toMatchObject({ mode: "embedded", leader: true });
});

test("an unknown or malformed checkout link is a 404 page", async ({ page }) => {
  expect((await page.goto(`/pay/${crypto.randomUUID()}`))!.status()).toBe(404);
  expect((await page.goto("/pay/not-a-session"))!.status()).toBe(404);
});
