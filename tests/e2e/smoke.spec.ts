import { expect, test } from "@playwright/test";

test("home page introduces the product, links to sign-in and sign-up, and to the health endpoint", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Accept stablecoins on BNB Smart Chain." })).toBeVisible();
  await expect(page.getByText("BEP-20 tokens")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
  await page.getByRole("link", { name: "service status" }).click();
  await expect(page).toHaveURL(/\/api\/health$/);
  const health = JSON.parse((await page.locator("body").innerText()).trim());
  expect(health).toMatchObject({ status: "ok", db: "ok", jobs: { mode: "embedded" } });
  expect(health.chains.local.chainId).toBe(31337);
});

test("the embedded chain keeps producing blocks", async ({ request }) => {
  const first = await (await request.get("/api/health")).json();
  await expect
    .poll(async () => (await (await request.get("/api/health")).json()).chains.local.head, { timeout: 10_000 })
    .toBeGreaterThan(first.chains.local.head);
});

test("/favicon.ico answers the app's icon, not a 404 (browsers ask for it before reading the page's icon link)", async ({ request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});
