import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { totpCode, totpStep } from "../../lib/accounts/users/totp";
import { apiMerchant, moneyKey, payDirectly } from "./helpers/merchant";
import { captureBothThemes, expectAccessible, screenshot, signIn, signUp, watchConsole } from "./helpers/pages";

/**
 * Two-factor sign-in from the merchant's side: set up in Settings (scan or type the
 * key, confirm a code, keep the recovery codes), then sign in with a code, create an API key with
 * one. Every state in both themes at 1280 and 375 px, through axe.
 */
const PASSWORD = "correct horse battery staple";

/** The page in both themes (switched in place, so the flow runs once) at 1280 and 375 px, through axe. */
async function shoot(page: Page, testInfo: TestInfo, name: string) {
  // Axe would otherwise measure colours mid-transition after the theme class changes.
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page, `${name} (${theme})`);
    await screenshot(page, testInfo, `${name}-${theme}-1280`);
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, testInfo, `${name}-${theme}-375`);
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a merchant turns on two-factor sign-in, then signs in and creates a key with a code", async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const email = `2fa-${Date.now()}@example.com`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const logs = watchConsole(page);
  // Sign-up, like every form, keeps its button off until its required fields have values.
  await page.goto("/signup");
  const createAccount = page.getByRole("button", { name: "Create account" });
  await expect(createAccount).toBeDisabled();
  await page.getByLabel("Email").fill(email);
  await expect(createAccount).toBeDisabled();
  await page.getByLabel("Password").fill(" ");
  await expect(createAccount).toBeDisabled(); // spaces are not a value
  await signUp(page, email, PASSWORD);

  await page.goto("/dashboard/settings");
  await expect(page.getByText("Off. With it on")).toBeVisible();
  await shoot(page, testInfo, "2fa-off");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByRole("img", { name: /QR code of your two-factor key/ })).toBeVisible();
  await shoot(page, testInfo, "2fa-enrol");

  // The current password too (a stolen session alone must not turn it on); a wrong one, or a wrong
  // code, is refused in place.
  const turnOn = page.getByRole("button", { name: "Turn on" });
  // The change-password form on the same page has a "Current password" too.
  const currentPassword = page.locator("form").filter({ has: turnOn }).getByLabel("Current password");
  await expect(currentPassword).toHaveAttribute("autocomplete", "current-password");
  await page.getByLabel("Code from the app").fill("000000");
  await expect(turnOn).toBeDisabled();
  await currentPassword.fill("not my password");
  await turnOn.click();
  await expect(page.getByText("the current password is wrong")).toBeVisible();
  await shoot(page, testInfo, "2fa-enrol-wrong-password");
  await currentPassword.fill(PASSWORD);
  await turnOn.click();
  await expect(page.getByText("the code does not match")).toBeVisible();
  await expect(page.getByText("the current password is wrong")).toHaveCount(0);
  const step = totpStep();
  await page.getByLabel("Code from the app").fill(totpCode(secret, step - 1));
  await turnOn.click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await shoot(page, testInfo, "2fa-recovery-codes");
  await page.getByRole("button", { name: "I have stored them" }).click();
  await expect(page.getByText("of 10 recovery codes left")).toBeVisible();
  // axe would measure the toast mid-fade: check the page once it is gone.
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await page.mouse.move(0, 0); // the pointer left over a button would be measured in its hover colours
  await shoot(page, testInfo, "2fa-on");

  // Another browser: the password alone is not enough.
  const other = await browser.newContext();
  const login = await other.newPage();
  const loginLogs = watchConsole(login);
  // The sign-in that asks for the code answers 401 on purpose: the browser logs that status line.
  loginLogs.ignore(/status of 401 \(Unauthorized\)/);
  await login.goto("/login");
  const signInButton = login.getByRole("button", { name: "Sign in" });
  await expect(signInButton).toBeDisabled();
  await login.getByLabel("Email").fill(email);
  await expect(signInButton).toBeDisabled();
  await login.getByLabel("Password").fill(PASSWORD);
  await signInButton.click();
  await expect(login.getByLabel("Two-factor code")).toBeVisible();
  await expect(login).toHaveURL(/\/login/);
  await expect(signInButton).toBeDisabled(); // the code asked for is required too
  await shoot(login, testInfo, "2fa-sign-in-code");
  await login.getByLabel("Two-factor code").fill(totpCode(secret, step));
  await login.getByRole("button", { name: "Sign in" }).click();
  await login.waitForURL("**/dashboard");

  // Creating an API key asks for a code too.
  await login.goto("/dashboard/api-keys");
  await login.getByLabel("Key name").fill("with two-factor");
  const createKey = login.getByRole("button", { name: "Create key" });
  await expect(createKey).toBeDisabled(); // until the code is typed
  await login.getByLabel("Two-factor code").fill("000000");
  await createKey.click();
  await expect(login.getByText(/[Tt]he code does not match|[Tt]hat code is not right/)).toBeVisible();
  await shoot(login, testInfo, "2fa-api-key-code");
  await login.getByLabel("Two-factor code").fill(totpCode(secret, step + 1));
  await createKey.click();
  await expect(login.getByTestId("new-api-key")).toContainText("bscp_live_");
  for (const l of [logs, loginLogs]) l.assertClean();
  await other.close();
  await context.close();
});

test("with two-factor on, a new payout address of a paid domain asks for a code, waits, and can be cancelled", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  // A paid merchant: a payment completed to its domain (a merchant never paid changes at once).
  const merchant = await apiMerchant(request, ["https://paid-shop.example"]);
  const session = await merchant.createPayment("2");
  await payDirectly(session.depositAddress, "2");
  await expect.poll(async () => (await merchant.status(session.sessionId)).status, { timeout: 20_000 }).toBe("completed");

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const logs = watchConsole(page);
  await signIn(page, merchant.email, merchant.password);
  await page.goto("/dashboard/settings");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  const step = totpStep();
  await page.getByLabel("Code from the app").fill(totpCode(secret, step - 1));
  const turnOn = page.getByRole("button", { name: "Turn on" });
  await page.locator("form").filter({ has: turnOn }).getByLabel("Current password").fill(merchant.password);
  await turnOn.click();
  await page.getByRole("button", { name: "I have stored them" }).click();
  // This browser stays signed in (its cookie was renewed); every other session ended.
  await expect(page.getByText("of 10 recovery codes left")).toBeVisible();

  await page.goto("/dashboard/domains");
  const card = page.locator('[data-domain="https://paid-shop.example"]');
  const address = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
  await card.getByLabel("Payout address").fill(address);
  const save = card.getByRole("button", { name: "Save changes" });
  await expect(card.getByLabel("Two-factor code")).toBeVisible();
  await expect(save).toBeDisabled(); // until the code is typed
  await card.getByLabel("Two-factor code").fill(totpCode(secret, step));
  await save.click();
  const notice = card.getByTestId("pending-payout-change");
  await expect(notice).toContainText(`Payout address changes to ${address} on`);
  await expect(card.getByLabel("Payout address")).toHaveValue(""); // still the withdrawal wallet until then
  await captureBothThemes(page, testInfo, "payout-change-pending", { axeOnPhone: true });

  await notice.getByRole("button", { name: "Cancel change" }).click();
  await expect(notice).toHaveCount(0);
  const listed = await (await request.get("/api/user/domains", { headers: merchant.headers })).json();
  // The bearer token from before two-factor was turned on is revoked too.
  expect(listed.error?.code).toBe("UNAUTHORIZED");
  logs.assertClean();
  await context.close();
});

test("an owner requires two-factor of the members: a finance member without it can only enrol, then works again", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const shop = await apiMerchant(request, ["https://rule-shop.example"]);
  const invitation = (await (await request.post("/api/user/invitations", { headers: shop.headers, data: { role: "finance" } })).json())
    .data as { url: string };

  // The finance member joins from the link (the dashboard then opens in the shop's account).
  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const member = await memberContext.newPage();
  const memberLogs = watchConsole(member);
  const email = `rule-finance-${Date.now()}@example.com`;
  await member.goto(new URL(invitation.url).pathname);
  await member.getByRole("link", { name: "Create a login" }).click();
  await member.getByLabel("Email").fill(email);
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Create account" }).click();
  await member.waitForURL(/\/invite\//);
  await member.getByRole("button", { name: "Join the account" }).click();
  await member.waitForURL("**/dashboard");
  await expect(member.getByTestId("account-switcher")).toContainText("finance");

  // The owner: two-factor on (over the API), signs in with a code, turns the rule on in Settings.
  const owner = await moneyKey(request, shop);
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ownerContext.newPage();
  const logs = watchConsole(page);
  logs.ignore(/status of 401 \(Unauthorized\)/); // the sign-in that asks for the code
  await page.goto("/login");
  await page.getByLabel("Email").fill(shop.email);
  await page.getByLabel("Password").fill(shop.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByLabel("Two-factor code").fill(await owner.code());
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/dashboard");
  await page.goto("/dashboard/settings");
  const rule = page.getByTestId("members-two-factor");
  const toggle = rule.getByRole("switch", { name: "Members need two-factor authentication" });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await toggle.click();
  await expect(rule.getByTestId("unenrolled")).toContainText(email);
  await expect(rule.getByTestId("unenrolled")).toContainText("(finance)");
  await page.locator("#members-two-factor").scrollIntoViewIfNeeded();
  await shoot(page, testInfo, "members-two-factor-turning-on");
  await rule.getByLabel("Your two-factor code").fill(await owner.code());
  await rule.getByRole("button", { name: "Require two-factor" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Members now need two-factor" }).first()).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await page.mouse.move(0, 0);
  await shoot(page, testInfo, "members-two-factor-on");

  // The member: every page of the shop's account sends them to enrol; once on, they are back.
  await member.goto("/dashboard/payments");
  await member.waitForURL("**/dashboard/two-factor-required");
  await expect(member.getByTestId("two-factor-required")).toContainText(
    `${shop.email} requires two-factor authentication of every finance`,
  );
  await shoot(member, testInfo, "two-factor-required");
  await member.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await member.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  await member.getByLabel("Code from the app").fill(totpCode(secret, totpStep()));
  const turnOn = member.getByRole("button", { name: "Turn on" });
  await member.locator("form").filter({ has: turnOn }).getByLabel("Current password").fill(PASSWORD);
  await turnOn.click();
  await expect(member.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10); // shown, not navigated away from
  await member.getByRole("button", { name: "I have stored them" }).click();
  await expect(member.getByTestId("two-factor-done")).toBeVisible();
  await expect(member.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
  await member.mouse.move(0, 0);
  await shoot(member, testInfo, "two-factor-required-done");
  await member.getByRole("link", { name: "Continue to the dashboard" }).click();
  await member.waitForURL(/\/dashboard$/);
  await member.goto("/dashboard/payments");
  await expect(member.getByRole("heading", { name: "Payments", level: 1 })).toBeVisible();
  for (const l of [logs, memberLogs]) l.assertClean();
  await ownerContext.close();
  await memberContext.close();
});
