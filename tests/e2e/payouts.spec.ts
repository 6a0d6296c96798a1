import { expect, test } from "@playwright/test";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_DEFAULT_KEYS } from "../../lib/engine/dev/demo-token";
import { apiMerchant, chain, local, payDirectly, rpcUrl } from "./helpers/merchant";
import { captureBothThemes, signIn, watchConsole } from "./helpers/pages";

/**
 * The payouts page: a merchant uploads a CSV of five recipients with one bad row, sees
 * it by its line, drops it, sends the rest (a double click sends once) and watches each payment
 * complete — every state in both themes at 1280 and 375 px, through axe, with no console error.
 */
test("a merchant uploads a CSV, drops the bad row, sends and watches each payout complete", async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const logs = watchConsole(page);
  const merchant = await apiMerchant(request, ["https://payouts.example.com"]);
  const [domain] = (await (await request.get("/api/user/domains", { headers: merchant.headers })).json()).data;
  const wallet = domain.withdrawalAddress as Address;
  // The domain's withdrawal wallet pays: tokens to pay with, and BNB for the gas of the batch.
  await payDirectly(wallet, "100");
  const funder = createWalletClient({ account: privateKeyToAccount(ANVIL_DEFAULT_KEYS[2]!), chain: local, transport: http(rpcUrl) });
  await chain.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: wallet, value: parseEther("1") }) });

  await signIn(page, merchant.email, merchant.password);
  await page.getByRole("link", { name: "Payouts", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Payouts", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No payouts yet" })).toBeVisible();
  await captureBothThemes(page, testInfo, "payouts-empty");

  const to = (i: number) => `0x${(0xe2e0000 + i).toString(16).padStart(40, "0")}`;
  const csv = [
    "address,amount,reference",
    `${to(1)},1.5,invoice-1001`,
    `${to(2)},2,invoice-1002`,
    "0xnot-an-address,3,invoice-1003",
    `${to(4)},2.25,invoice-1004`,
    `${to(5)},4`,
  ].join("\n");
  await page.getByTestId("csv-file").setInputFiles({ name: "payouts.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByLabel("Recipients (CSV)")).toHaveValue(csv);
  await page.getByRole("button", { name: "Review payouts" }).click();
  const bad = page.getByTestId("bad-rows");
  await expect(bad).toContainText("1 row cannot be paid");
  await expect(bad.locator("li[data-line]")).toHaveCount(1);
  await expect(bad.locator('li[data-line="4"]')).toContainText("Line 4");
  await expect(bad.locator('li[data-line="4"]')).toContainText("address must be");
  await expect(page.getByTestId("review-total")).toHaveText("9.75 DUSD");
  await captureBothThemes(page, testInfo, "payouts-review-bad-row");

  await page.getByRole("button", { name: "Drop the bad row and continue" }).click();
  await expect(bad).toHaveCount(0);
  await expect(page.getByTestId("payout-review")).toContainText("4 payouts");
  await expect(page.getByTestId("payout-review")).toContainText("1 dropped");
  await captureBothThemes(page, testInfo, "payouts-review-ready");

  // A double click is one submission: one batch.
  await page.getByRole("button", { name: "Send 4 payouts" }).dblclick();
  await page.waitForURL(/\/dashboard\/payouts\/[0-9a-f-]{36}$/);
  await expect(page.locator("tr[data-item]")).toHaveCount(4);
  await captureBothThemes(page, testInfo, "payout-batch-sending");
  await expect(page.locator('tr[data-item][data-status="completed"]')).toHaveCount(4, { timeout: 90_000 });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Completed");
  await captureBothThemes(page, testInfo, "payout-batch-completed");

  const exported = await request.get(`${new URL(page.url()).pathname}/export`, {
    headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
  });
  expect(exported.status()).toBe(200);
  expect((await exported.text()).split("\r\n")[0]).toBe("row,toAddress,amount,token,reference,status,txHash,failureReason,completedAt");

  await page.getByRole("link", { name: "Payouts", exact: true }).first().click();
  await expect(page.locator("tr[data-batch-id]")).toHaveCount(1);
  await expect(page.locator('tr[data-batch-id][data-status="completed"]')).toBeVisible();
  await captureBothThemes(page, testInfo, "payouts-list");
  logs.assertClean();
});
