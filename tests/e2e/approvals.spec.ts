import { expect, test } from "@playwright/test";
import { captureBothThemes, signUp, watchConsole } from "./helpers/pages";

/**
 * The Approvals page: an owner with nothing waiting sees the empty inbox, the decided
 * history and the thresholds card, in both themes at 1280 and 375 px, through axe. The approve →
 * send journey between two members is the lead's team e2e; the logic is tests/integration/approvals.test.ts.
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
