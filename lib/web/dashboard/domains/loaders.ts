/** The domains page's loader: it opens the database itself, so app/ never holds a handle. */
import { getDb } from "../../../db";
import { listDomains } from "../../../domain/merchant-domains/manage-domains";
import { bnbBalanceOf } from "../../../domain/withdrawals/wallet-balances";
import { listNetworks } from "../../../engine/chain/networks";
import { walletBalances } from "../overview/overview";
import { balanceLabel } from "../shared/wording";
import { deliveriesOfDomain, EMPTY_SUMMARY, webhookSummaries } from "../webhooks/summaries";

export type DeliveriesQuery = Parameters<typeof deliveriesOfDomain>[3];

/**
 * `/dashboard/domains`: each domain with its wallet's balances (BNB on every network, then its
 * tokens) and its webhooks; `deliveriesQuery` says which page of a domain's deliveries its card shows.
 */
export async function loadDomainsPage(userId: number, deliveriesQuery: (domainId: number) => DeliveriesQuery) {
  const db = await getDb();
  const [domains, tokenBalances, summaries] = await Promise.all([
    listDomains(db, userId),
    walletBalances(db, userId),
    webhookSummaries(db, userId),
  ]);
  const networks = listNetworks().map((n) => n.name);
  const cards = await Promise.all(
    domains.map(async (d) => {
      const [bnb, deliveries] = await Promise.all([
        Promise.all(
          networks.map(async (n) => ({
            key: `bnb-${n}`,
            label: balanceLabel("BNB", n, networks),
            symbol: "BNB",
            // biome-ignore lint/style/noNonNullAssertion: addDomain sets the wallet in the transaction that inserts the row
            balance: (await bnbBalanceOf(n, d.withdrawalAddress!))?.formatted ?? null,
          })),
        ),
        d.webhookSecretHint ? deliveriesOfDomain(db, userId, d.domainId, deliveriesQuery(d.domainId)) : null,
      ]);
      const tokens = (tokenBalances.find((w) => w.domainId === d.domainId)?.balances ?? []).map((b) => ({
        key: `token-${b.tokenId}`,
        label: balanceLabel(b.symbol, b.network, networks),
        symbol: b.symbol,
        balance: b.balance,
      }));
      return {
        domain: d,
        balances: [...bnb, ...tokens],
        webhooks: { summary: summaries.get(d.domainId) ?? EMPTY_SUMMARY, deliveries },
      };
    }),
  );
  return { domains, cards };
}
