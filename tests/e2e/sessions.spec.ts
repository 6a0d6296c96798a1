import { expect, test } from "@playwright/test";
import { expectAccessible, screenshot, signIn, signUp, watchConsole } from "./helpers/pages";

/**
 * A stolen password stops working: changing it signs out every other browser and
 * bearer token while this browser stays in; "sign out everywhere" ends them all, this one too.
 */
test("a password change signs out the other browsers and tokens; sign out everywhere ends them all", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `sessions-${Date.now()}@example.com`;
  const [password, newPassword] = ["correct horse battery staple", "a different long password"];
  const mine = await browser.newContext();
  const theirs = await browser.newContext();
  const page = await mine.newPage();
  const other = await theirs.newPage();
  const logs = [watchConsole(page), watchConsole(other)];

  await signUp(page, email, password);
  await signIn(other, email, password);
  const { token } = (await (await request.post("/api/user/token", { data: { email, password } })).json()).data;
  expect((await request.get("/api/user/tokens", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(200);

  await page.goto("/dashboard/settings");
  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Password changed" })).toBeVisible({ timeout: 15_000 });

  // This browser is still in; the other one and the old bearer token are out.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await other.goto("/dashboard/payments");
  await expect(other).toHaveURL(/\/login/);
  const revoked = await request.get("/api/user/tokens", { headers: { authorization: `Bearer ${token}` } });
  expect(revoked.status()).toBe(401);
  expect((await revoked.json()).error.message).toContain("revoked");

  // The other browser signs in with the new password, then everything is signed out from here.
  await signIn(other, email, newPassword);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("this one included");
  await expectAccessible(page, "sign out everywhere dialog");
  await screenshot(page, testInfo, "sign-out-everywhere-dialog");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL("**/login");
  for (const p of [page, other]) {
    await p.goto("/dashboard");
    await expect(p).toHaveURL(/\/login/);
  }
  for (const log of logs) log.assertClean();
  await mine.close();
  await theirs.close();
});
