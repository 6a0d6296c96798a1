import { expect, test } from "@playwright/test";

test("the /docs page renders the generated API reference offline", async ({ page }) => {
  const external: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["127.0.0.1", "localhost"].includes(url.hostname) && url.protocol.startsWith("http")) external.push(request.url());
  });
  await page.goto("/docs");
  await expect(page.getByText("BSC Pay API").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Create a payment session").first()).toBeVisible();
  await page.screenshot({ path: "test-results/docs.png" });
  expect(external).toEqual([]);
});
