/** What the dashboard's frame shows around every page: who is signed in, their accounts, and the nav's badges. */

import { getDb } from "../../../db";
import { countAwaiting } from "../../../domain/approvals/inbox";
import { pagePrincipal } from "../../http/page";

/** The layout's data: pagePrincipal's, plus the approvals waiting in the account (the nav's badge; none while the member must enrol first). */
export async function dashboardShell() {
  const found = await pagePrincipal();
  if (!found) return null;
  const { principal } = found;
  const awaiting = principal && !principal.enrolOnly ? await countAwaiting(await getDb(), principal.account.id) : 0;
  return { ...found, awaiting };
}
