/** The settings pages' loader (settings, two-factor required): it opens the database itself. */
import { twoFactorStatus } from "../../../accounts/users/two-factor";
import { getDb } from "../../../db";
import type { User } from "../../../db/schema";

/** The currencies the settings page offers for the account's currency. */
export { ACCOUNT_CURRENCIES } from "./account-settings";

/** `/dashboard/settings`: the user's two-factor status. */
export async function loadSettingsPage(user: User) {
  return twoFactorStatus(await getDb(), user);
}
