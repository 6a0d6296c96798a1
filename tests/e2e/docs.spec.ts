import { expect, test } from "@playwright/test";
import { captureBothThemes, screenshot, watchConsole } from "./helpers/pages";

test("/docs shows the API's operations by resource at once, leads back to the dashboard, and loads the full reference offline on demand", async ({
  page,
}, testInfo) => {
  const logs = watchConsole(page);
  const external: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol.startsWith("http")) external.push(request.url());
  });
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: "BSC Pay API" })).toBeVisible();

  // Grouped by resource, in the order a shop reads them, each operation with a short summary.
  const groups = await page.locator("main section[id] > h2").allTextContents();
  expect(groups.slice(0, 4)).toEqual(["Payments", "Refunds", "Withdrawals", "Payouts"]);
  expect(groups).toEqual(expect.arrayContaining(["Webhooks", "Domains", "API keys", "Sign-in", "Pages (public)"]));
  const payments = page.getByRole("region", { name: "Payments" });
  await expect(payments.getByText("Create a payment session")).toBeVisible();
  await expect(payments.getByText("/api/v1/payment/create")).toBeVisible();
  await expect(page.getByRole("region", { name: "Withdrawals" }).getByText("Send a withdrawal")).toBeVisible();
  // The rest of a summary lives in its description, a click away.
  await payments.getByText("Get a session's status").click();
  await expect(payments.getByText("poll it every 5–10 s")).toBeVisible();

  const back = page.getByRole("link", { name: "Back to the dashboard" });
  await expect(back).toBeVisible();
  await expect(back).toHaveAttribute("href", "/dashboard");
  await captureBothThemes(page, testInfo, "docs", { axeOnPhone: true });

  // The interactive reference (Scalar) only when asked for, from this server alone.
  await page.getByRole("button", { name: "Load the full reference" }).click();
  await expect(page.getByText("Get a session's status").nth(1)).toBeVisible({ timeout: 30_000 });
  await screenshot(page, testInfo, "docs-full-reference");
  expect(external).toEqual([]);
  logs.assertClean();

  await back.click();
  await expect(page).toHaveURL(/\/(dashboard|login)/);
});
