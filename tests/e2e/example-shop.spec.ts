import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS } from "../../lib/engine/dev/demo-token";
import { expectAccessible, screenshot, watchConsole } from "./helpers/pages";
import { injectWallet } from "./helpers/wallet";

/**
 * The example shop (examples/shop) started with the quickstart's own commands (docs/sdk.md) against
 * the product on anvil: a payer orders, pays in the embedded checkout with a browser wallet, and the
 * shop's server marks the order paid from the webhook it verified.
 */
const SHOP_DIR = "examples/shop";
const payer = privateKeyToAccount(ANVIL_DEFAULT_KEYS[1]!).address;

function run(command: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: SHOP_DIR, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} → ${code}: ${output}`))));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let shop: ChildProcess | undefined;
test.afterEach(() => {
  shop?.kill();
  shop = undefined;
});

test("example shop: order → wallet pays in the embedded checkout → webhook verified → order paid", async ({ page, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const folder = mkdtempSync(join(tmpdir(), "bscpay-shop-"));
  const port = await freePort();
  const env = {
    BSC_PAY_URL: baseURL!,
    SHOP_PORT: String(port),
    SHOP_ENV_FILE: join(folder, ".env"),
    SHOP_DATA_FILE: join(folder, "orders.json"),
  };

  // The quickstart: npm install, npm run setup, npm start.
  await run("npm", ["install", "--no-audit", "--no-fund", "--offline"], {});
  await run("npm", ["run", "setup"], env);
  const written = Object.fromEntries(
    readFileSync(env.SHOP_ENV_FILE, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  expect(written.BSC_PAY_API_KEY).toMatch(/^bscp_live_/);
  expect(written.BSC_PAY_WEBHOOK_SECRET).toMatch(/^whsec_/);
  let shopLog = "";
  shop = spawn("npm", ["start"], { cwd: SHOP_DIR, env: { ...process.env, ...env, ...written } });
  shop.stdout?.on("data", (c) => (shopLog += c));
  shop.stderr?.on("data", (c) => (shopLog += c));
  const shopUrl = `http://127.0.0.1:${port}`;
  await expect
    .poll(
      () =>
        fetch(shopUrl).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 20_000 },
    )
    .toBe(200);

  const logs = watchConsole(page);
  await injectWallet(page, { account: payer });
  await page.goto(shopUrl);
  await expect(page.getByRole("heading", { name: "Flat white" })).toBeVisible();
  await expectAccessible(page, "example shop");
  await screenshot(page, testInfo, "example-shop");

  await page.getByRole("button", { name: "Pay with crypto" }).click();
  const checkout = page.frameLocator('iframe[title="BSC Pay checkout"]');
  await expect(checkout.getByTestId("amount")).toHaveText("3.5 DUSD", { timeout: 20_000 });
  await screenshot(page, testInfo, "example-shop-checkout");
  await checkout.getByRole("button", { name: "Pay 3.5 DUSD with Test Wallet" }).click();
  await expect(checkout.getByRole("heading", { name: "Payment received" })).toBeVisible({ timeout: 30_000 });

  // The payer closes the receipt; the shop hears "completed", then waits for its own server's word.
  // Escape, with the focus inside the checkout (the embed passes it on to checkout.js).
  await checkout.getByRole("heading", { name: "Payment received" }).click();
  await page.keyboard.press("Escape");
  await expect(page.locator("iframe")).toHaveCount(0);
  await expect(page.getByRole("status")).toHaveText(/^Order ORD-[0-9A-F]{10} is paid\. Thank you!$/, { timeout: 30_000 });
  await screenshot(page, testInfo, "example-shop-paid");
  // The shop's page on a phone, in the dark scheme too.
  await page.setViewportSize({ width: 375, height: 720 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page, "example shop, paid, dark, phone");
  await screenshot(page, testInfo, "example-shop-paid-dark-phone");
  const orderId = (await page.getByRole("status").textContent())!.match(/ORD-[0-9A-F]{10}/)![0];
  const order = await (await fetch(`${shopUrl}/orders/${orderId}`)).json();
  expect(order).toMatchObject({ status: "paid", amount: "3.5", token: "DUSD" });
  expect(order.paidByEvent).toMatch(/^msg_/);
  expect(order.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(shopLog).toContain(`order ${orderId} paid`);

  // A forged "paid" for a new, unpaid order changes nothing: the shop refuses it.
  const unpaid = await (await fetch(`${shopUrl}/orders`, { method: "POST" })).json();
  const forged = await fetch(`${shopUrl}/webhooks/bsc-pay`, {
    method: "POST",
    headers: { "webhook-id": "msg_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
    body: JSON.stringify({
      type: "payment.completed",
      timestamp: new Date().toISOString(),
      data: { orderId: unpaid.orderId, sessionId: unpaid.sessionId, status: "completed", amount: "3.5", token: "DUSD" },
    }),
  });
  expect(forged.status).toBe(400);
  expect((await (await fetch(`${shopUrl}/orders/${unpaid.orderId}`)).json()).status).toBe("awaiting_payment");
  logs.assertClean();
});
