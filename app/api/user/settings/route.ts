import { accountSettingsSchema, getAccountSettings, updateAccountSettings } from "@/lib/web/dashboard/account-settings";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withUser } from "@/lib/web/http/handlers";

/** GET /api/user/settings → {accountCurrency, currencies}: the currency the dashboard's totals and CSV are shown in. */
export const GET = withUser(async ({ db, user }) => ok(await getAccountSettings(db, user.id)));

/** PATCH /api/user/settings {accountCurrency} → {accountCurrency, currencies}; an unsupported currency → 400, nothing changed. */
export const PATCH = withUser(async ({ req, db, user }) =>
  ok(await updateAccountSettings(db, user.id, await readJson(req, accountSettingsSchema))),
);
