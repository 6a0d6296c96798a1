import { expect, type Page, test } from "@playwright/test";
import { NATIVE_TOKEN } from "../../lib/engine/chain/native";
import { apiMerchant } from "./helpers/merchant";
import { captureBothThemes, watchConsole } from "./helpers/pages";

/**
 * The token picker's pending state: between a click on another token and the server's answer
 * (held here until the test lets it through), nothing of the old token — its amount, the address,
 * the QR code, the contract, the wallet button, the Copy buttons — is left to be copied or paid;
 * the new token's figures then appear. With it: one countdown on the page, and only the Copy
 * button pressed last says "Copied".
 */

/** The old token's figures a payer could copy, scan or pay: none may be on the page while switching. */
async function expectNothingToCopy(page: Page) {
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);
  await expect(page.getByTestId("remaining-amount")).toHaveCount(0);
  await expect(page.locator("img[data-payment-uri]")).toHaveCount(0);
  await expect(page.locator("[data-copy-value]")).toHaveCount(0);
  await expect(page.getByTestId("payment-uri")).toHaveCount(0);
  await expect(page.getByText("Token contract")).toHaveCount(0);
  await expect(page.getByTestId("token-amount")).toHaveText("");
}

test("switching token: the old token's amount, address and contract are blanked until the new view is there", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://shop.example.com"]);
  const registered = await request.post("/api/user/tokens", {
    headers: merchant.headers,
    data: { contractAddress: NATIVE_TOKEN, network: "local" },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const created = await request.post("/api/v1/payment/create", {
    headers: { "x-api-key": merchant.key },
    data: { currency: "USD", amount: "25.00", description: "1 × Grinder burr set" },
  });
  expect(created.status(), await created.text()).toBe(201);
  const session = (await created.json()).data as { sessionId: string; depositAddress: string };

  // The server's answer to the choice waits until the test has looked at the page in between.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/checkout/*/token", async (route) => {
    await held;
    await route.continue();
  });

  await page.goto(`/pay/${session.sessionId}?lang=en`);
  const picker = page.getByRole("radiogroup", { name: "Pay with" });
  await expect(picker.getByRole("radio")).toHaveCount(2);
  const asked = await picker.locator("[data-token]:has(input:checked)").getAttribute("data-token");
  const other = asked === "BNB" ? "DUSD" : "BNB";
  await expect(page.getByTestId("deposit-address")).toBeVisible();

  // One countdown: the status block's; the picker says the rates hold until it runs out.
  await expect(page.getByTestId("time-left")).toHaveText(/^\d+:\d\d left$/);
  await expect(page.getByTestId("rates-locked")).toHaveText("Rates locked until the payment expires");
  await expect(page.getByText(/\d+:\d\d left/)).toHaveCount(1);
  await expect(page.getByText(/locked for \d/)).toHaveCount(0);
  // Rates with 2 to 4 decimals.
  await expect(picker).toContainText("1 BNB = 600.00 USD");
  await expect(picker).toContainText("1 DUSD = 1.00 USD");

  await picker.locator(`[data-token="${other}"]`).click();
  await expect(picker.getByRole("radio", { name: new RegExp(other) })).toBeChecked();
  await expect(page.getByTestId("switching-token")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: `Switching to ${other}` })).toBeVisible();
  await expect(picker).toHaveAttribute("aria-busy", "true");
  await expectNothingToCopy(page);
  await picker.getByRole("radio", { name: new RegExp(other) }).blur();
  await captureBothThemes(page, testInfo, "checkout-picker-switching", { axeOnPhone: true });
  await expectNothingToCopy(page);

  release();
  await expect(page.getByTestId("switching-token")).toHaveCount(0);
  const otherAmount = other === "BNB" ? "0.041666666666666667 BNB" : "25 DUSD";
  await expect(page.getByTestId("token-amount")).toHaveText(otherAmount);
  await expect(page.getByTestId("remaining-amount")).toHaveText(otherAmount);
  await expect(page.getByTestId("deposit-address")).toBeVisible();
  await expect(picker).toHaveAttribute("aria-busy", "false");
  await captureBothThemes(page, testInfo, "checkout-picker-switched", { axeOnPhone: true });

  // Only the Copy button pressed last says "Copied".
  const copyAddress = page.getByRole("button", { name: /^Copy address/ });
  const copyAmount = page.getByRole("button", { name: /^Copy amount/ });
  await copyAddress.click();
  await expect(copyAddress).toHaveText("Copied");
  await copyAmount.click();
  await expect(copyAmount).toHaveText("Copied");
  await expect(copyAddress).toHaveText("Copy");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(otherAmount.split(" ")[0]);

  logs.assertClean();
  await context.close();
});
