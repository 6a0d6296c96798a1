import { expect, test } from "@playwright/test";
import { totpCode, totpStep } from "../../lib/accounts/users/totp";
import { apiMerchant, moneyKey, payDirectly } from "./helpers/merchant";
import { captureBothThemes, signUp, watchConsole } from "./helpers/pages";

/**
 * A team: the owner invites a member by link; the member creates a login from the link,
 * joins, lands in the owner's account and sees only what their role allows; the switcher takes
 * them back to their own. A developer's key holds what a developer may grant, names its maker, and
 * is revoked when the owner removes them. Every page in both themes at 1280 and 375 px, through axe.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "correct horse battery staple";
const owner = { email: `team-owner-${Date.now()}@example.com` };
const dev = { email: `team-dev-${Date.now()}@example.com` };

test("the owner invites a developer, who joins from the link and sees a developer's dashboard", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ownerContext.newPage();
  const logs = watchConsole(page);
  await signUp(page, owner.email, PASSWORD);

  await page.getByRole("link", { name: "Members" }).first().click();
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await expect(page.getByText("Only you so far.")).toBeVisible();
  await expect(page.getByText("No invitations waiting")).toBeVisible();
  await captureBothThemes(page, testInfo, "members-empty");

  await page.getByTestId("invite-role").selectOption("developer");
  await page.getByLabel("For (optional)").fill("Dev Dana");
  await page.getByRole("button", { name: "Create link" }).click();
  const url = (await page.getByTestId("invite-url").innerText()).trim();
  expect(url).toMatch(/\/invite\/[A-Za-z0-9_-]{20,}$/);
  await expect(page.locator("tr[data-invitation]")).toContainText("Dev Dana");
  await captureBothThemes(page, testInfo, "members-invited");

  // The member, in a browser of their own, signed out.
  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const member = await memberContext.newPage();
  const memberLogs = watchConsole(member);
  await member.goto(new URL(url).pathname);
  await expect(member.getByRole("heading", { name: "You are invited" })).toBeVisible();
  await expect(member.getByTestId("invitation")).toContainText(owner.email);
  await captureBothThemes(member, testInfo, "invitation-signed-out");
  await member.getByRole("link", { name: "Create a login" }).click();
  // The sign-up keeps the invitation's context: whom they join, as what.
  await expect(member.getByRole("heading", { name: "Create a login to join" })).toBeVisible();
  await expect(member.getByTestId("joining")).toContainText(`Join ${owner.email} as Developer.`);
  await captureBothThemes(member, testInfo, "signup-to-join");
  await member.getByLabel("Email").fill(dev.email);
  await member.getByLabel("Password").fill(PASSWORD);
  await member.getByRole("button", { name: "Create account" }).click();
  await member.waitForURL(/\/invite\//);
  await expect(member.getByText(`Signed in as ${dev.email}`)).toBeVisible();
  await captureBothThemes(member, testInfo, "invitation-signed-in");
  await member.getByRole("button", { name: "Join the account" }).click();
  await member.waitForURL("**/dashboard");

  // In the owner's account, as a developer: keys yes, money and members no.
  await expect(member.getByTestId("account-switcher")).toContainText(owner.email);
  await expect(member.getByTestId("account-switcher")).toContainText("developer");
  await member.goto("/dashboard/api-keys");
  await expect(member.getByLabel("Key name")).toBeVisible();
  // A key never does more than its maker: a developer grants payments:read; the rest is shown, not offered.
  await expect(member.getByLabel(/payments:read/)).toBeChecked();
  for (const scope of [/payments:write/, /refunds/, /withdrawals/, /payouts/]) await expect(member.getByLabel(scope)).toBeDisabled();
  await expect(member.locator('[data-scope="withdrawals"]')).toContainText("Your role cannot grant this");
  await captureBothThemes(member, testInfo, "api-keys-as-developer");
  await member.getByLabel("Key name").fill("dev tools");
  await member.getByRole("button", { name: "Create key" }).click();
  await expect(member.getByTestId("new-api-key")).toContainText("bscp_live_");
  await expect(member.getByRole("dialog")).toContainText("Scopes: payments:read");
  await member.getByRole("button", { name: "I have stored it" }).click();
  await expect(member.locator('tr[data-key-name="dev tools"]').getByTestId("key-maker")).toHaveText("you");
  await member.goto("/dashboard/withdrawals");
  await expect(member.getByRole("button", { name: /Send/ })).toHaveCount(0);
  await member.goto("/dashboard/members");
  await expect(member.locator(`tr[data-member="${dev.email}"]`)).toContainText("Developer");
  await expect(member.getByTestId("role-note")).toContainText("Your role (developer) cannot manage members");
  await expect(member.getByRole("button", { name: /Remove/ })).toHaveCount(0);
  await captureBothThemes(member, testInfo, "members-as-developer");
  await member.goto("/dashboard/payments/new");
  await member.waitForURL(/\/dashboard\/forbidden\?need=payments/);
  await expect(member.getByRole("heading", { name: "Your role cannot open this page" })).toBeVisible();
  await captureBothThemes(member, testInfo, "forbidden");

  // The switcher takes them to their own account, where they are the owner.
  await member.goto("/dashboard");
  await member.getByTestId("account-switcher").click();
  await member.getByRole("menuitem", { name: new RegExp(dev.email) }).click();
  await expect(member.getByTestId("account-switcher")).toContainText("owner");
  await captureBothThemes(member, testInfo, "switcher-home");

  // The owner sees the new member and changes their role.
  await page.reload();
  const row = page.locator(`tr[data-member="${dev.email}"]`);
  await expect(row).toBeVisible();
  await row.getByTestId("member-role").selectOption("viewer");
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "is now viewer" }).first()).toBeVisible();
  await captureBothThemes(page, testInfo, "members-team");

  // The owner sees who made the developer's key; removing the developer says it revokes it, and does.
  await page.goto("/dashboard/api-keys");
  await expect(page.locator('tr[data-key-name="dev tools"]').getByTestId("key-maker")).toHaveText(dev.email);
  await page.goto("/dashboard/members");
  await page.getByRole("button", { name: `Remove ${dev.email}` }).click();
  const removal = page.getByRole("alertdialog");
  await expect(removal.getByTestId("removal-consequence")).toHaveText(
    "This also revokes 1 API key and 0 invitations they made: requests with those keys fail at once.",
  );
  await captureBothThemes(page, testInfo, "members-remove-dialog");
  await removal.getByRole("button", { name: "Remove member" }).click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "1 API key revoked" }).first()).toBeVisible();
  await expect(page.locator(`tr[data-member="${dev.email}"]`)).toHaveCount(0);
  await page.goto("/dashboard/api-keys");
  const revoked = page.locator('tr[data-key-name="dev tools"]');
  await expect(revoked).toContainText("revoked");
  await expect(revoked.getByTestId("key-change").first()).toContainText(`when ${dev.email} was removed`);
  await captureBothThemes(page, testInfo, "api-keys-member-removed");

  logs.assertClean();
  memberLogs.assertClean();
  await ownerContext.close();
  await memberContext.close();
});

test("a finance member approves the owner's withdrawal with a two-factor code, and it is sent once", async ({
  browser,
  request,
}, testInfo) => {
  test.setTimeout(240_000);
  const shop = await apiMerchant(request, ["https://team-shop.example.com"]);
  const [domain] = (await (await request.get("/api/user/domains", { headers: shop.headers })).json()).data;
  await payDirectly(domain.withdrawalAddress, "50");
  // The threshold first: with two-factor on, changing it asks for a code.
  const policy = await request.put(`/api/user/approval-policies/${shop.tokenId}`, {
    headers: shop.headers,
    data: { perRequest: "10", perDay: null },
  });
  expect(policy.status()).toBe(200);
  // A key that sends withdrawals is made only with its maker's two-factor code.
  const money = await moneyKey(request, shop);
  const recipient = "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199";
  const sent = await request.post("/api/v1/withdrawal/send", {
    headers: { "x-api-key": money.key },
    data: { domainId: domain.domainId, tokenId: shop.tokenId, toAddress: recipient, amount: "20" },
  });
  expect(sent.status()).toBe(201);
  const withdrawal = (await sent.json()).data;
  expect(withdrawal.status).toBe("awaiting_approval");
  const invitation = (await (await request.post("/api/user/invitations", { headers: money.headers, data: { role: "finance" } })).json())
    .data;

  // The finance member: joins from the link, turns two-factor on, approves from the inbox.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const logs = watchConsole(page);
  const email = `team-finance-${Date.now()}@example.com`;
  await page.goto(new URL(invitation.url).pathname);
  await page.getByRole("link", { name: "Create a login" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(/\/invite\//);
  await page.getByRole("button", { name: "Join the account" }).click();
  await page.waitForURL("**/dashboard");
  await expect(page.getByTestId("account-switcher")).toContainText("finance");
  await expect(page.getByTestId("nav-badge-approvals").first()).toContainText("1");

  await page.goto("/dashboard/settings");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  const step = totpStep();
  await page.getByLabel("Code from the app").fill(totpCode(secret, step - 1));
  const turnOn = page.getByRole("button", { name: "Turn on" });
  await page.locator("form").filter({ has: turnOn }).getByLabel("Current password").fill(PASSWORD);
  await turnOn.click();
  await page.getByRole("button", { name: "I have stored them" }).click();

  await page.goto("/dashboard/approvals");
  const row = page.locator("[data-testid=awaiting-approvals] tr[data-approval]");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("20");
  // Who asked: the owner, through the key they made; where it goes, before anything is approved.
  await expect(row).toContainText("API key");
  await captureBothThemes(page, testInfo, "approvals-waiting");
  await row.getByTestId("approve").click();
  await expect(page.getByRole("dialog").getByTestId("approval-destination")).toHaveText(recipient);
  await page.getByLabel("Two-factor code").fill(totpCode(secret, step));
  await captureBothThemes(page, testInfo, "approvals-approve-dialog");
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Approve/ })
    .click();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Approved" }).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("[data-testid=decided-approvals] tr[data-approval]")).toContainText(/approved/i);
  await captureBothThemes(page, testInfo, "approvals-decided");

  // Sent once: the withdrawal left awaiting_approval and completes on chain.
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/v1/withdrawal/${withdrawal.withdrawalId}`, { headers: { "x-api-key": money.key } })).json()).data
          .status,
      {
        timeout: 60_000,
      },
    )
    .toBe("completed");
  // The owner's audit log names the finance member as the approver.
  const audit = (await (await request.get("/api/user/audit?action=withdrawal.approved", { headers: money.headers })).json()).data.items;
  expect(audit.map((e: { actor: { label: string } }) => e.actor.label)).toEqual([email]);
  logs.assertClean();
  await context.close();
});
