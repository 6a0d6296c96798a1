import { byMember } from "@/lib/accounts/audit/audit-origin";
import { accountSettingsSchema, getAccountSettings, updateAccountSettings } from "@/lib/web/dashboard/account-settings";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/settings → {accountCurrency, currencies}: the currency the dashboard's totals and CSV are shown in. */
export const GET = withMember("read", async ({ db, account }) => ok(await getAccountSettings(db, account.id)));

/** PATCH /api/user/settings {accountCurrency} → {accountCurrency, currencies}; an unsupported currency → 400, nothing changed. */
export const PATCH = withMember("settings", async ({ req, db, ...principal }) =>
  ok(await updateAccountSettings(db, principal.account.id, await readJson(req, accountSettingsSchema), byMember(principal))),
);
