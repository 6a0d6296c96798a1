import { expect, test } from "@playwright/test";
import { captureBothThemes, expectAccessible, screenshot, signUp, watchConsole } from "./helpers/pages";

/**
 * #11 in the built app: scripts run only with the request's nonce (no CSP
 * violation, the theme script still runs), a dot-segment callbackUrl stays on the site, and the
 * API keys page makes a publishable key that "sign out everywhere" can revoke.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "correct horse battery staple";
const email = `keys-${Date.now()}@example.com`;

test("every script of a page carries the request's nonce; nothing is blocked and the theme script runs", async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: "dark" });
  const page = await context.newPage();
  const logs = watchConsole(page);
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { violations: string[] }).violations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    );
  });
  for (const path of ["/", "/login", "/signup", "/docs"]) {
    const response = await page.goto(path);
    const csp = response?.headers()["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(nonce, path).toBeTruthy();
    await page.waitForLoadState("load");
    await page.waitForTimeout(500); // scripts loaded later (strict-dynamic) have run too
    const scripts = await page.evaluate(() => [...document.scripts].map((s) => ({ nonce: s.nonce, src: s.src })));
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const script of scripts) expect(script.nonce, `${path}: ${script.src || "inline script"}`).toBe(nonce);
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), path).toEqual([]);
    // The theme script ran (it has the nonce): dark before React.
    await expect(page.locator("html")).toHaveClass(/dark/);
  }
  // A script without the nonce is refused.
  logs.ignore(/Content Security Policy|Failed to load resource/);
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { injected?: boolean; violations: string[] };
    const s = document.createElement("div");
    s.innerHTML = '<img src="x" onerror="window.injected = true">';
    document.body.append(s);
    await new Promise((r) => setTimeout(r, 300));
    return { injected: w.injected === true, violations: w.violations.length };
  });
  expect(ran).toEqual({ injected: false, violations: 1 });
  logs.assertClean();
  await context.close();
});

test("a dot-segment callbackUrl leaves nobody on another site, before or after signing in", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const logs = watchConsole(page);
  await signUp(page, email, PASSWORD);
  // Signed in: the login page sends on at once.
  await page.goto("/login?callbackUrl=/x/..//evil.example");
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
  await context.clearCookies();
  // Signed out: after signing in.
  for (const callback of ["/x/..//evil.example", "/x/%2e%2e//evil.example", "/./%2Fevil.example"]) {
    await page.goto(`/login?callbackUrl=${encodeURIComponent(callback)}`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/dashboard");
    expect(new URL(page.url()).host).toMatch(/^127\.0\.0\.1:\d+$/);
    await context.clearCookies();
  }
  logs.assertClean();
  await context.close();
});

test("the API keys page makes a publishable key with its scopes; sign out everywhere can revoke every key", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");

  await page.goto("/dashboard/api-keys");
  // Without two-factor, the scopes that send money out are shown but cannot be ticked.
  await expect(page.getByLabel(/payments:write/)).toBeChecked();
  for (const scope of [/refunds/, /withdrawals/, /payouts/]) await expect(page.getByLabel(scope)).toBeDisabled();
  await expect(page.locator('[data-scope="withdrawals"]')).toContainText("turn on two-factor authentication in Settings first");
  await captureBothThemes(page, testInfo, "api-keys-money-needs-two-factor");
  await page.getByLabel("Publishable key").check();
  await expect(page.getByLabel("withdrawals")).toHaveCount(0);
  await expect(page.getByLabel(/payments:write/)).toBeChecked();
  await page.getByLabel(/payments:read/).uncheck();
  await page.getByLabel(/payments:write/).uncheck();
  await page.getByLabel("Key name").fill("shop pages");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Tick at least one scope." })).toBeVisible();
  await page.getByLabel(/payments:read/).check();
  await page.getByLabel(/payments:write/).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").innerText()).trim();
  expect(key).toMatch(/^bscp_pk_live_/);
  await expect(page.getByRole("dialog")).toContainText("create and read payments only");
  await screenshot(page, testInfo, "api-keys-publishable-created");
  await page.getByRole("button", { name: "I have stored it" }).click();
  const row = page.locator('tr[data-key-name="shop pages"]');
  await expect(row).toContainText("publishable");
  await expect(row.getByTestId("key-maker")).toHaveText("you");
  await expect(row.getByRole("list", { name: "Scopes of shop pages" })).toHaveText(/payments:write\s*payments:read/);
  await captureBothThemes(page, testInfo, "api-keys-kinds");

  const withdrawals = await request.get("/api/v1/withdrawal/history", { headers: { "x-api-key": key } });
  expect(withdrawals.status()).toBe(401);
  expect((await withdrawals.json()).error.message).toBe("this API key lacks the `withdrawals` scope");
  expect((await request.get("/api/v1/payment/history", { headers: { "x-api-key": key } })).status()).toBe(200);

  await page.goto("/dashboard/settings");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.getByLabel("Also revoke every API key").check();
  await expectAccessible(page, "sign out everywhere dialog with the key option");
  await screenshot(page, testInfo, "sign-out-everywhere-revoke-keys");
  await dialog.getByRole("button", { name: "Sign out and revoke keys" }).click();
  await page.waitForURL("**/login");
  expect((await request.get("/api/v1/payment/history", { headers: { "x-api-key": key } })).status()).toBe(401);
  logs.assertClean();
});
