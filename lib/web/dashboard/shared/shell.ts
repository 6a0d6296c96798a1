/** What the dashboard's frame shows around every page: who is signed in, their accounts, and the nav's badges. */

import { getDb } from "../../../db";
import { countAwaiting } from "../../../domain/approvals/inbox";
import { pagePrincipal } from "../../http/page";
import { accountName } from "./wording";

/** The layout's data: pagePrincipal's (each account by its name), plus the approvals waiting in the account (the nav's badge; none while the member must enrol first). */
export async function dashboardShell() {
  const found = await pagePrincipal();
  if (!found) return null;
  const { principal } = found;
  const awaiting = principal && !principal.enrolOnly ? await countAwaiting(await getDb(), principal.account.id) : 0;
  // The switcher names each account (its API label stays the e-mail it was opened with).
  const accounts = found.accounts.map((a) => ({ ...a, label: accountName(a.label) }));
  return { ...found, accounts, awaiting };
}
