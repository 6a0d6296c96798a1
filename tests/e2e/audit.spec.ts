import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { apiKeyActor, systemActor, userActor } from "@/lib/accounts/audit/actor";
import { type AuditInput, recordAudit } from "@/lib/accounts/audit/record-audit";
import { openPostgres } from "@/lib/db/client";
import { apiKeys, users } from "@/lib/db/schema";
import { captureBothThemes, signIn, signUp, watchConsole } from "./helpers/pages";

/**
 * The audit log page: an empty log, then one with entries — filters in the URL, keyset
 * paging, the CSV — in both themes at 1280 and 375 px, through axe, with no console error. No call
 * site records events yet (the lead wires them), so the entries are written with the lib straight
 * into the server's database: that needs the server on PostgreSQL (E2E_DATABASE_URL); on the
 * embedded database, which only the server may open, the seeded part is skipped.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "correct horse battery staple";
const email = `audit-${Date.now()}@example.com`;

test("a new account's log holds its own sign-in, and a filter that matches nothing says so", async ({ page }, testInfo) => {
  const logs = watchConsole(page);
  await signUp(page, email, PASSWORD);
  await page.getByRole("link", { name: "Audit log", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  // Signing up signed the owner in: the first entry of every account.
  await expect(page.locator('tr[data-action="auth.sign_in"]')).toHaveCount(1);
  const signedIn = page.locator('tr[data-action="auth.sign_in"]');
  // A sentence, with what was recorded one click away.
  await expect(signedIn.getByTestId("audit-sentence")).toHaveText(`${email} signed in`);
  await expect(signedIn.getByText("auth.sign_in")).toBeHidden();
  await signedIn.getByText("Details").click();
  await expect(signedIn.getByText("auth.sign_in")).toBeVisible();
  await expect(signedIn.getByTestId("audit-details")).toContainText("After");
  await captureBothThemes(page, testInfo, "audit-first-sign-in");
  await page.getByLabel("Action").selectOption("api_key.created");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/action=api_key\.created/);
  await expect(page.getByRole("heading", { name: "No entries match" })).toBeVisible();
  // A filter the page does not understand is said, not an error page.
  await page.goto("/dashboard/audit?from=2026-02-30");
  await expect(page.getByText("Some filters were not understood")).toBeVisible();
  logs.assertClean();
});

test("entries render, filter by action, actor and dates, page Older/Newer and export", async ({ page }, testInfo) => {
  test.skip(!process.env.E2E_DATABASE_URL, "seeding needs the server on PostgreSQL (E2E_DATABASE_URL)");
  test.setTimeout(120_000);
  await signIn(page, email, PASSWORD);
  // A real key, so that the actor filter offers it.
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Key name").fill("shop backend");
  await page.getByRole("button", { name: "Create key" }).click();
  await page.getByRole("button", { name: "I have stored it" }).click();
  let keyLabel = "";
  const handle = openPostgres(process.env.E2E_DATABASE_URL ?? "", { max: 1 });
  try {
    const [account] = await handle.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, email));
    if (!account) throw new Error("the first test signs the account up");
    const me = userActor(account);
    const [issued] = await handle.db.select().from(apiKeys).where(eq(apiKeys.userId, account.id));
    if (!issued) throw new Error("the key was created above");
    const key = apiKeyActor(issued);
    keyLabel = `${issued.name} (${issued.prefix}…)`;
    const base = { accountId: account.id, address: "203.0.113.9" };
    const events: AuditInput[] = [
      { ...base, actor: me, action: "auth.sign_in" },
      { ...base, actor: me, action: "two_factor.enabled" },
      {
        ...base,
        actor: me,
        action: "api_key.created",
        target: { type: "api_key", id: issued.id },
        after: { name: issued.name, prefix: issued.prefix, kind: issued.kind, scopes: issued.scopes },
      },
      {
        ...base,
        actor: me,
        action: "domain.payout_target_changed",
        target: { type: "domain", id: 1 },
        before: { payoutAddress: null },
        after: { payoutAddress: "0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199" },
      },
      {
        ...base,
        actor: me,
        action: "domain.webhook_changed",
        target: { type: "domain", id: 1 },
        before: { webhookUrl: "https://shop.example.com/hooks/old" },
        after: { webhookUrl: "https://shop.example.com/hooks/bsc-pay", webhookSecret: "whsec_never_shown" },
      },
      {
        accountId: account.id,
        address: null,
        actor: key,
        action: "withdrawal.requested",
        target: { type: "withdrawal", id: "0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e" },
        after: {
          amount: "125.5",
          tokenSymbol: "USDT",
          toAddress: "0x1111111111111111111111111111111111111111",
          domainId: 1,
          status: "awaiting_approval",
        },
      },
      {
        accountId: account.id,
        address: null,
        actor: systemActor(),
        action: "withdrawal.rejected",
        target: { type: "withdrawal", id: "0b7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e" },
        after: { reason: "expired" },
      },
      {
        ...base,
        actor: me,
        action: "approval_policy.changed",
        target: { type: "token", id: 999_999 },
        before: { perRequest: null, perDay: null },
        after: { perRequest: "5", perDay: null },
      },
      {
        ...base,
        actor: me,
        action: "refund.requested",
        target: { type: "refund", id: "5d0c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e" },
        after: { sessionId: "6e7c5c3e-2a8f-4a8e-9d7e-3f3a1c1b2d4e", amount: null, fiatAmount: "10", toAddress: null },
      },
      { ...base, actor: me, action: "account.settings_changed", before: { accountCurrency: "USD" }, after: { accountCurrency: "EUR" } },
    ];
    // Enough sign-ins for a second page (the page shows 25).
    for (let i = 0; i < 20; i++) events.unshift({ ...base, actor: me, action: "auth.sign_in" });
    for (const event of events) await recordAudit(handle.db, event);
  } finally {
    await handle.close();
  }

  const logs = watchConsole(page);
  await page.goto("/dashboard/audit");
  const rows = page.locator("tr[data-audit-id]");
  await expect(rows).toHaveCount(25);
  // Each entry reads as a sentence; no engine field name or status is said outside its details.
  const sentence = (action: string) => page.locator(`tr[data-action="${action}"]`).getByTestId("audit-sentence");
  await expect(rows.first().getByTestId("audit-sentence")).toHaveText(`${email} changed the account currency from USD to EUR`);
  await expect(sentence("approval_policy.changed")).toHaveText(`${email} set the per-request approval limit to 5`);
  await expect(sentence("refund.requested")).toHaveText(`${email} requested a refund of 10 for a payment`);
  await expect(sentence("withdrawal.requested")).toHaveText(
    `API key ${keyLabel} asked to withdraw 125.5 USDT to 0x1111…1111, awaiting approval`,
  );
  await expect(sentence("withdrawal.rejected")).toHaveText("A withdrawal expired without a second member's approval");
  await expect(sentence("domain.webhook_changed")).toHaveText(
    `${email} changed the webhook of a domain to https://shop.example.com/hooks/bsc-pay`,
  );
  for (const raw of ["perRequest", "awaiting_approval", "domainId", "fiatAmount", "accountCurrency"])
    await expect(page.getByTestId("audit-sentence").filter({ hasText: raw })).toHaveCount(0);
  // The raw before/after, one click away; secrets never stored.
  const first = rows.first();
  await first.getByText("Details").click();
  await expect(first.getByTestId("audit-details")).toContainText('"accountCurrency": "EUR"');
  await expect(page.locator('tr[data-action="domain.webhook_changed"]').getByTestId("audit-details")).toContainText(
    '"webhookSecret": "[redacted]"',
  );
  await expect(page.getByText("whsec_never_shown")).toHaveCount(0);
  await captureBothThemes(page, testInfo, "audit-entries", { axeOnPhone: true });

  // Older, then Newer, by cursor.
  // 33 entries: the 30 seeded above and 3 real ones (the sign-up's sign-in, this test's, the key).
  await page.getByRole("link", { name: "Older entries" }).click();
  await expect(rows).toHaveCount(8);
  await expect(rows.first().getByTestId("audit-sentence")).toHaveText(`${email} signed in`);
  await page.getByRole("link", { name: "Newer entries" }).click();
  await expect(rows).toHaveCount(25);

  // Filters live in the URL and survive paging.
  await page.getByLabel("Actor").selectOption({ label: `API key ${keyLabel}` });
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/actor=api_key%3A\d+/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-action", "withdrawal.requested");
  // 21 seeded sign-ins and 2 real ones (the sign-up's, this test's).
  await page.goto("/dashboard/audit?action=auth.sign_in");
  await expect(rows).toHaveCount(23);
  await expect(page.getByLabel("Action")).toHaveValue("auth.sign_in");
  const today = new Date().toISOString().slice(0, 10);
  await page.goto(`/dashboard/audit?from=${today}&to=${today}&actor=system`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-action", "withdrawal.rejected");
  await page.goto("/dashboard/audit?to=2020-01-01");
  await expect(page.getByRole("heading", { name: "No entries match" })).toBeVisible();

  // The export holds what the filters match.
  const csv = await page.request.get("/dashboard/audit/export?action=domain.webhook_changed");
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trimEnd().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain("domain.webhook_changed");
  expect(lines[1]).not.toContain("whsec_never_shown");
  logs.assertClean();
});
