import { expect, test } from "@playwright/test";
import { apiMerchant, payDirectly } from "./helpers/merchant";
import { captureBothThemes, signIn, signUp, watchConsole } from "./helpers/pages";

/**
 * The Approvals page: an owner with nothing waiting sees the empty inbox, the decided
 * history and the thresholds card, in both themes at 1280 and 375 px, through axe. The approve →
 * send journey between two members is the lead's team e2e; the logic is tests/integration/approvals.test.ts.
 * Then an account where nobody could approve: the thresholds card warns before one is saved, the
 * send dialog says the withdrawal will wait, and a member who may approve but has no two-factor is
 * sent to Settings from the waiting row instead of a code dialog they could not answer.
 */
const PASSWORD = "correct horse battery staple";

test("an owner's Approvals page: empty inbox, no history yet, the thresholds card", async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const logs = watchConsole(page);
  await signUp(page, `approvals-${Date.now()}@example.com`, PASSWORD);
  await page.goto("/dashboard/approvals");
  await expect(page.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
  await expect(page.getByText("Nothing waits for approval")).toBeVisible();
  await expect(page.getByText("Nothing decided yet.")).toBeVisible();
  await expect(page.getByText("Approval thresholds")).toBeVisible();
  await captureBothThemes(page, testInfo, "approvals-empty");
  logs.assertClean();
});

test("a threshold nobody can approve yet warns; the send dialog says it waits; the waiting row links to Settings", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const shop = await apiMerchant(request, ["https://nobody-approves.example.com"]);
  const [domain] = (await (await request.get("/api/user/domains", { headers: shop.headers })).json()).data;
  await payDirectly(domain.withdrawalAddress, "50");

  // The owner, without two-factor: nobody can approve, said before a threshold is saved.
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ownerContext.newPage();
  const logs = watchConsole(page);
  await signIn(page, shop.email, shop.password);
  await page.goto("/dashboard/approvals");
  const warning = page.getByTestId("approver-warning");
  await expect(warning).toContainText("Nobody can approve yet");
  await expect(warning.getByRole("link", { name: "Turn on two-factor →" })).toHaveAttribute("href", "/dashboard/settings");
  const policy = page.getByTestId("policy-DUSD");
  await policy.getByLabel("DUSD per request").fill("5");
  await policy.getByRole("button", { name: "Save" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "DUSD: thresholds saved." }).first()).toBeVisible();
  await expect(warning).toContainText("Nobody can approve yet");
  await captureBothThemes(page, testInfo, "approvals-nobody-can-approve");

  // Above the threshold, the confirmation says it waits instead of "cannot be undone".
  await page.goto("/dashboard/withdrawals");
  await expect(page.getByTestId("available")).toContainText("50 DUSD", { timeout: 20_000 });
  await page.getByLabel("Amount").fill("20");
  await page.getByLabel("Recipient address").fill("0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199");
  await page.getByRole("button", { name: "Review withdrawal" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("send-consequence")).toContainText("Needs approval (above 5 DUSD)");
  await expect(dialog).not.toContainText("cannot be undone");
  await captureBothThemes(page, testInfo, "withdrawal-needs-approval");
  await dialog.getByRole("button", { name: "Ask for approval" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "20 DUSD awaits approval" }).first()).toBeVisible();
  // Available leaves out what waits for approval.
  await page.reload();
  await expect(page.getByTestId("available")).toContainText("30 DUSD (20 DUSD waiting for approval)", { timeout: 20_000 });

  // The owner's own request: nobody else could approve it, and the row says whom to invite.
  await page.goto("/dashboard/approvals");
  const ownRow = page.locator("[data-testid=awaiting-approvals] tr[data-approval]");
  await expect(ownRow).toHaveCount(1);
  await expect(ownRow.getByTestId("nobody-else-approves")).toContainText("Nobody else can approve it yet");

  // A finance member joins without two-factor: the row offers Settings, not a dialog they could not answer.
  const invitation = (await (await request.post("/api/user/invitations", { headers: shop.headers, data: { role: "finance" } })).json())
    .data;
  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const member = await memberContext.newPage();
  const memberLogs = watchConsole(member);
  await member.goto(new URL(invitation.url).pathname);
  await member.getByRole("link", { name: "Create a login" }).click();
  await member.getByLabel("Email").fill(`approver-${Date.now()}@example.com`);
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Create account" }).click();
  await member.waitForURL(/\/invite\//);
  await member.getByRole("button", { name: "Join the account" }).click();
  await member.waitForURL("**/dashboard");
  // The switcher names the account, not a person.
  await expect(member.getByTestId("account-switcher")).toContainText(`${shop.email}'s account`);
  await member.goto("/dashboard/approvals");
  const row = member.locator("[data-testid=awaiting-approvals] tr[data-approval]");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("approve")).toHaveCount(0);
  const toSettings = row.getByRole("link", { name: "Turn on two-factor →" });
  await expect(toSettings).toHaveAttribute("href", "/dashboard/settings");
  await captureBothThemes(member, testInfo, "approvals-waiting-needs-two-factor");
  await toSettings.click();
  await member.waitForURL("**/dashboard/settings");

  logs.assertClean();
  memberLogs.assertClean();
  await ownerContext.close();
  await memberContext.close();
});
