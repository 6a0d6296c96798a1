import { accountSettingsSchema, getAccountSettings, updateAccountSettings } from "@/lib/web/dashboard/account/account-settings";
import { readJson } from "@/lib/web/http/body";
import { ok } from "@/lib/web/http/envelope";
import { withMember } from "@/lib/web/http/handlers";

/** GET /api/user/settings → {accountCurrency, currencies, membersNeedTwoFactor, membersWithoutTwoFactor}. */
export const GET = withMember("read", async ({ db, account }) => ok(await getAccountSettings(db, account.id)));

/**
 * PATCH /api/user/settings {accountCurrency?, membersNeedTwoFactor?, code?} → the settings.
 * accountCurrency needs `settings`; membersNeedTwoFactor is the owner's (`members`), with their own
 * two-factor on and a current code. Bad input → 400, a role without the permission → 403; nothing changes.
 */
export const PATCH = withMember("settings", async ({ req, db, ...principal }) =>
  ok(await updateAccountSettings(db, principal, await readJson(req, accountSettingsSchema))),
);
