/**
 * What each dashboard page reads: one loader per page (and one for the CSV export), taking what
 * the page knows — the signed-in user and the ids and filters in its URL — and opening the
 * database itself, so app/ never holds a database handle (tests/unit/layering.test.ts). Loaders
 * only compose: the queries stay in the db-first functions they call (the read models beside
 * this file and the areas' own), which the API, the jobs and the tests call with their own db.
 */
import { listApiKeys } from "../../accounts/api-keys/manage-api-keys";
import { twoFactorStatus } from "../../accounts/users/two-factor";
import { AppError } from "../../base/errors";
import { getDb } from "../../db";
import type { User, WithdrawalStatus } from "../../db/schema";
import { listDomains } from "../../domain/domains/manage-domains";
import { getPaymentLink, listPaymentLinks } from "../../domain/payment-links/manage-links";
import { getPlan, listPlans } from "../../domain/plans/current-plan";
import { paymentRefunds } from "../../domain/refunds/dashboard-refunds";
import { acceptedTokensFor } from "../../domain/tokens/catalogue-for-merchants";
import { listTokens } from "../../domain/tokens/list-tokens";
import { getUserWithdrawal, listUserWithdrawals } from "../../domain/withdrawals/user-withdrawals";
import { bnbBalanceOf } from "../../domain/withdrawals/wallet-balances";
import { listNetworks } from "../../engine/chain/networks";
import { accountVolume } from "./account-value";
import { gasCsvStream } from "./gas-export";
import { getGasUsage } from "./gas-usage";
import { lowGasTanks, onboarding, paymentsByStatus, recentPayments, volumeByDay, walletBalances } from "./overview";
import { getUserPayment } from "./payment-detail";
import { deliveriesOfSession } from "./payment-webhooks";
import { paymentsCsvStream } from "./payments-export";
import { listUserPayments, type PaymentFilters } from "./user-payments";
import { deliveriesOfDomain, EMPTY_SUMMARY, webhookSummaries } from "./webhooks";
import { withdrawalsCsvStream } from "./withdrawals-export";
import { balanceLabel } from "./wording";

/** The statuses the payment and withdrawal lists filter by (the schema's own lists). */
export { SESSION_STATUSES, WITHDRAWAL_STATUSES, type WithdrawalStatus } from "../../db/schema";

/**
 * `/dashboard`: the checklist, counts by status, volume over `range` days (in the account's currency,
 * and by token beside), wallets, low gas tanks, recent payments.
 */
export async function loadOverviewPage(userId: number, range: 7 | 30, accountCurrency = "USD") {
  const db = await getDb();
  const [checklist, counts, volume, value, balances, tanks, recent] = await Promise.all([
    onboarding(db, userId),
    paymentsByStatus(db, userId),
    volumeByDay(db, userId, range),
    accountVolume(db, userId, accountCurrency, range),
    walletBalances(db, userId),
    lowGasTanks(db),
    recentPayments(db, userId),
  ]);
  return { checklist, counts, volume, value, balances, tanks, recent };
}

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

/**
 * `/dashboard/payments`: one page of the filtered payments, the tokens and domains the filters
 * offer, and the payment link filtered by (null when none, or not the user's: the list is empty then).
 */
export async function loadPaymentsPage(userId: number, filters: PaymentFilters) {
  const db = await getDb();
  const [page, tokens, domains, link] = await Promise.all([
    listUserPayments(db, userId, filters),
    listTokens(db, userId),
    listDomains(db, userId),
    filters.linkId ? getPaymentLink(db, userId, filters.linkId).catch(notFoundAsNull) : null,
  ]);
  return { page, tokens, domains, link: link ? { linkId: link.linkId, title: link.title } : null };
}

function notFoundAsNull(error: unknown): null {
  if (error instanceof AppError && error.code === "NOT_FOUND") return null;
  throw error;
}

/** `/dashboard/payments/export`: the filtered payments as CSV bytes, streamed from the database. */
export async function openPaymentsExport(userId: number, filters: PaymentFilters): Promise<ReadableStream<Uint8Array>> {
  return paymentsCsvStream(await getDb(), userId, filters);
}

/** `/dashboard/withdrawals/export`: the withdrawals (of one status, or all) as CSV bytes. */
export async function openWithdrawalsExport(userId: number, status?: WithdrawalStatus): Promise<ReadableStream<Uint8Array>> {
  return withdrawalsCsvStream(await getDb(), userId, { status });
}

/** `/dashboard/gas/export`: every transaction the gas tank paid for the merchant, as CSV bytes. */
export async function openGasExport(userId: number): Promise<ReadableStream<Uint8Array>> {
  return gasCsvStream(await getDb(), userId);
}

/**
 * `/dashboard/payments/<sessionId>`: one payment, its timeline, its webhook deliveries and its
 * refunds with what can still be refunded (never their claim links; which ones `memberId` made),
 * and the payment link that created it (NOT_FOUND when it is not the user's).
 */
export async function loadPaymentPage(userId: number, sessionId: string, memberId: number | null = null) {
  const db = await getDb();
  const payment = await getUserPayment(db, userId, sessionId);
  const [deliveries, refunds, link] = await Promise.all([
    deliveriesOfSession(db, userId, { id: payment.sessionId, createdAt: new Date(payment.createdAt) }),
    paymentRefunds(db, userId, payment.sessionId, memberId),
    payment.paymentLinkId ? getPaymentLink(db, userId, payment.paymentLinkId).catch(notFoundAsNull) : null,
  ]);
  return { ...payment, deliveries, refunds, link: link ? { linkId: link.linkId, title: link.title } : null };
}

/**
 * `/dashboard/links`: the user's payment links with their figures, the tokens and domains the
 * forms offer, and what blocks creating one (no plan, token or domain) so the page can link to the fix.
 */
export async function loadLinksPage(userId: number) {
  const db = await getDb();
  const [links, current, tokens, domains] = await Promise.all([
    listPaymentLinks(db, userId),
    getPlan(db, userId),
    listTokens(db, userId),
    listDomains(db, userId),
  ]);
  const blockers = [
    ...(current.plan ? [] : (["plan"] as const)),
    ...(tokens.length ? [] : (["token"] as const)),
    ...(domains.length ? [] : (["domain"] as const)),
  ];
  return { links, tokens, domains, blockers };
}

/**
 * `/dashboard/payments/new`: the tokens and domains the form offers, and what blocks creating a
 * payment (no plan, no token, no domain) so the page can link to the fix instead.
 */
export async function loadCreatePaymentPage(userId: number) {
  const db = await getDb();
  const [current, tokens, domains] = await Promise.all([getPlan(db, userId), listTokens(db, userId), listDomains(db, userId)]);
  const blockers = [
    ...(current.plan ? [] : (["plan"] as const)),
    ...(current.plan && current.usage.remaining === 0 ? (["quota"] as const) : []),
    ...(tokens.length ? [] : (["token"] as const)),
    ...(domains.length ? [] : (["domain"] as const)),
  ];
  return { tokens, domains, blockers };
}

/** Deliveries each domain card of `/dashboard/webhooks` shows. */
const WEBHOOKS_PAGE_DELIVERIES = 10;

/** `/dashboard/webhooks`: every domain with its endpoint (or none yet), trouble counts and its latest deliveries. */
export async function loadWebhooksPage(userId: number) {
  const db = await getDb();
  const [domains, summaries] = await Promise.all([listDomains(db, userId), webhookSummaries(db, userId)]);
  return Promise.all(
    domains.map(async (domain) => ({
      domain,
      summary: summaries.get(domain.domainId) ?? EMPTY_SUMMARY,
      deliveries: domain.webhookSecretHint
        ? await deliveriesOfDomain(db, userId, domain.domainId, { limit: WEBHOOKS_PAGE_DELIVERIES })
        : null,
    })),
  );
}

/** `/dashboard/withdrawals`: one page of withdrawals, and the domains and tokens the send form offers. */
export async function loadWithdrawalsPage(userId: number, query: Parameters<typeof listUserWithdrawals>[2]) {
  const db = await getDb();
  const [page, domains, tokens] = await Promise.all([
    listUserWithdrawals(db, userId, query),
    listDomains(db, userId),
    listTokens(db, userId),
  ]);
  return { page, domains, tokens };
}

/** `/dashboard/withdrawals/<withdrawalId>`: one withdrawal (NOT_FOUND when it is not the user's). */
export async function loadWithdrawalPage(userId: number, withdrawalId: string) {
  return getUserWithdrawal(await getDb(), userId, withdrawalId);
}

/** `/dashboard/gas`: what the gas tank spent for the user, by day and kind. */
export async function loadGasPage(userId: number) {
  return getGasUsage(await getDb(), userId);
}

/** `/dashboard/plan`: the current plan with its usage, and the plans to choose from. */
export async function loadPlanPage(userId: number) {
  const db = await getDb();
  const [current, plans] = await Promise.all([getPlan(db, userId), listPlans(db)]);
  return { current, plans };
}

/** `/dashboard/settings`: the user's two-factor status. */
export async function loadSettingsPage(user: User) {
  return twoFactorStatus(await getDb(), user);
}

/** The currencies the settings page offers for the account's currency. */
export { ACCOUNT_CURRENCIES } from "./account-settings";

/** `/dashboard/api-keys`: the user's keys, revoked ones included. */
export async function loadApiKeysPage(userId: number) {
  return listApiKeys(await getDb(), userId);
}

/** `/dashboard/tokens`: the operator's catalogue as the user may accept it, and the user's tokens. */
export async function loadTokensPage(userId: number) {
  const db = await getDb();
  const [catalogue, mine] = await Promise.all([acceptedTokensFor(db, userId), listTokens(db, userId)]);
  return { catalogue, mine };
}
