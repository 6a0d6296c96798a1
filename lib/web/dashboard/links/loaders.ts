/** The payment links pages' loader: it opens the database itself, so app/ never holds a handle. */
import { getDb } from "../../../db";
import { listDomains } from "../../../domain/merchant-domains/manage-domains";
import { listPaymentLinks } from "../../../domain/payment-links/manage-links";
import { getPlan } from "../../../domain/plans/current-plan";
import { listTokens } from "../../../domain/tokens/list-tokens";
import { accountCurrencyOf } from "../account/account-settings";

/**
 * `/dashboard/links`: the user's payment links with their figures, the tokens and domains the
 * forms offer, the account's currency (the other price a new link offers), and what blocks
 * creating one (no plan, token or domain) so the page can link to the fix.
 */
export async function loadLinksPage(userId: number) {
  const db = await getDb();
  const [links, current, tokens, domains, currency] = await Promise.all([
    listPaymentLinks(db, userId),
    getPlan(db, userId),
    listTokens(db, userId),
    listDomains(db, userId),
    accountCurrencyOf(db, userId),
  ]);
  const blockers = [
    ...(current.plan ? [] : (["plan"] as const)),
    ...(tokens.length ? [] : (["token"] as const)),
    ...(domains.length ? [] : (["domain"] as const)),
  ];
  return { links, tokens, domains, currency, blockers };
}
