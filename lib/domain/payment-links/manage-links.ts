/**
 * A merchant's payment links: create, list with their figures, update, deactivate. A link is
 * never deleted (its sessions refer to it); a deactivated one answers its page with "no longer
 * active" and creates nothing.
 */

import { randomBytes } from "node:crypto";
import { and, asc, count, desc, eq, inArray, isNull, max, sum } from "drizzle-orm";
import type { Acting } from "../../accounts/members/principal";
import { requireSecondFactor } from "../../accounts/users/two-factor";
import { commonRefusal } from "../../base/errors";
import { formatAmount, parseAmount } from "../../base/money";
import type { Db } from "../../db";
import { requireRow } from "../../db/rows";
import { domains, type PaymentLink, paymentLinks, paymentSessions, type Token, type User } from "../../db/schema";
import { getOwnDomain } from "../merchant-domains/manage-domains";
import { amountRefusal, paymentRefusal } from "../payments/reasons";
import { FIAT_MINOR_UNITS, formatFiatAmount, parseFiatAmount } from "../pricing/fiat";
import { pricingRefusal } from "../pricing/reasons";
import { acceptedTokenMinimum, isAcceptedToken } from "../tokens/accepted-tokens";
import { findOwnToken } from "../tokens/find-own-token";
import { assertAtLeastMinimumPayment } from "../tokens/minimum-payment";
import { type LinkStats, type PaymentLinkView, toLinkView } from "./link-view";
import { linkRefusal } from "./reasons";
import type { CreateLinkInput, UpdateLinkInput } from "./schemas";

/** A new link of the acting member's account; choosing a domain other than the first asks the acting member's code. */
export async function createPaymentLink(db: Db, { account, member }: Acting, input: CreateLinkInput): Promise<PaymentLinkView> {
  const userId = account.id;
  const token = await linkToken(db, userId, input.tokenId);
  const prices = linkPrices(input.amount ?? null, input.minAmount ?? null, input.currency ?? null, token);
  await assertPriceAtLeastMinimum(db, prices, token);
  const defaultDomain = await firstDomain(db, userId);
  const domainId = input.domainId ?? defaultDomain;
  if (input.domainId !== undefined) await getOwnDomain(db, userId, input.domainId);
  // Choosing where a link's money goes is a change of a payout target (docs/design.md §21): the
  // code of the member acting, never the account's own user (docs/design.md §26).
  if (domainId !== defaultDomain) await requireSecondFactor(db, member, input.code);
  const inserted = await db
    .insert(paymentLinks)
    .values({
      userId,
      slug: randomBytes(9).toString("base64url"),
      domainId,
      tokenId: token.id,
      title: input.title,
      description: input.description ?? null,
      ...prices,
      redirectUrl: input.redirectUrl ?? null,
      active: input.active ?? true,
    })
    .returning();
  return toLinkView(requireRow(inserted, "insert into payment_links"), token, NO_PAYMENTS);
}

export async function listPaymentLinks(db: Db, userId: number): Promise<PaymentLinkView[]> {
  const links = await db.select().from(paymentLinks).where(eq(paymentLinks.userId, userId)).orderBy(desc(paymentLinks.createdAt));
  return viewsOf(db, userId, links);
}

export async function getPaymentLink(db: Db, userId: number, linkId: number): Promise<PaymentLinkView> {
  const [view] = await viewsOf(db, userId, [await ownLink(db, userId, linkId)]);
  if (!view) throw commonRefusal("NOT_FOUND", "not-found", "payment link not found");
  return view;
}

/**
 * Any field; a change of token or price is checked as a whole (a fixed amount, or a minimum, never
 * both). Moving the link to another domain asks the acting member's code.
 */
export function updatePaymentLink(db: Db, { account, member }: Acting, linkId: number, input: UpdateLinkInput): Promise<PaymentLinkView> {
  return changeLink(db, account.id, linkId, input, member);
}

async function changeLink(db: Db, userId: number, linkId: number, input: UpdateLinkInput, member: User | null): Promise<PaymentLinkView> {
  const link = await ownLink(db, userId, linkId);
  const token = await linkToken(db, userId, input.tokenId ?? link.tokenId, input.tokenId === undefined);
  // The stored price is in base units of the link's current token.
  const current = input.tokenId === undefined || input.tokenId === link.tokenId ? token : await linkToken(db, userId, link.tokenId, true);
  const formatOld = (value: bigint | null) => (value === null ? null : formatAmount(value, current.decimals));
  // A price in a currency is kept in its minor units: its amount reads back as "25.00".
  const oldAmount =
    link.currency !== null && link.fiatAmount !== null
      ? formatFiatAmount(link.fiatAmount, FIAT_MINOR_UNITS[link.currency] ?? 2)
      : formatOld(link.amount);
  const priced =
    input.amount !== undefined || input.minAmount !== undefined || input.tokenId !== undefined || input.currency !== undefined
      ? linkPrices(
          input.amount !== undefined ? input.amount : oldAmount,
          input.minAmount !== undefined ? input.minAmount : formatOld(link.minAmount),
          input.currency !== undefined ? input.currency : link.currency,
          token,
        )
      : null;
  if (priced) await assertPriceAtLeastMinimum(db, priced, token);
  const prices = priced ?? {};
  if (input.domainId !== undefined) await getOwnDomain(db, userId, input.domainId);
  if (input.domainId !== undefined && input.domainId !== link.domainId) {
    if (!member) throw new Error("a link's domain changes only with the acting member known");
    await requireSecondFactor(db, member, input.code);
  }
  await db.transaction(async (tx) => {
    if (input.tokenId !== undefined && input.tokenId !== link.tokenId) await assertTokenMayChange(tx, link, current);
    await tx
      .update(paymentLinks)
      .set({
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.tokenId !== undefined ? { tokenId: input.tokenId } : {}),
        ...prices,
        ...(input.domainId !== undefined ? { domainId: input.domainId } : {}),
        ...(input.redirectUrl !== undefined ? { redirectUrl: input.redirectUrl } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        updatedAt: new Date(),
      })
      .where(eq(paymentLinks.id, link.id));
  });
  return getPaymentLink(db, userId, link.id);
}

/**
 * A link's figures add up its payments' amounts in its token: once it has a session, its token
 * stays (under the link's row lock, so a Pay starting meanwhile is seen). Another token needs a new link.
 */
async function assertTokenMayChange(tx: Db, link: PaymentLink, token: Pick<Token, "symbol">): Promise<void> {
  await tx.select({ id: paymentLinks.id }).from(paymentLinks).where(eq(paymentLinks.id, link.id)).for("update");
  const [used] = await tx
    .select({ id: paymentSessions.id })
    .from(paymentSessions)
    .where(eq(paymentSessions.paymentLinkId, link.id))
    .limit(1);
  if (!used) return;
  const message = `tokenId cannot change: this link already has payments in ${token.symbol}, and its figures add them up; create a new link for another token`;
  throw linkRefusal("VALIDATION_ERROR", "link-token-locked", message, [
    { path: "tokenId", message: "cannot change once the link has payments" },
  ]);
}

export function deactivatePaymentLink(db: Db, userId: number, linkId: number): Promise<PaymentLinkView> {
  return changeLink(db, userId, linkId, { active: false }, null);
}

async function ownLink(db: Db, userId: number, linkId: number): Promise<PaymentLink> {
  const [link] = await db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.id, linkId), eq(paymentLinks.userId, userId)));
  if (!link) throw commonRefusal("NOT_FOUND", "not-found", "payment link not found");
  return link;
}

/** The user's token, still accepted by the gateway (not checked again for a link that keeps its token). */
async function linkToken(db: Db, userId: number, tokenId: number, existing = false): Promise<Token> {
  const token = await findOwnToken(db, userId, tokenId);
  if (!token)
    throw paymentRefusal(
      existing ? "NOT_FOUND" : "VALIDATION_ERROR",
      "token-unknown",
      `unknown tokenId ${tokenId}: register the token first`,
    );
  if (!existing && !(await isAcceptedToken(db, token.network, token.contractAddress))) {
    throw paymentRefusal("VALIDATION_ERROR", "token-not-accepted", `the gateway no longer accepts ${token.symbol} on ${token.network}`);
  }
  return token;
}

/** A link's price (its fixed amount, or the minimum the payer may choose) is at least the token's minimum payment. */
async function assertPriceAtLeastMinimum(db: Db, prices: { amount: bigint | null; minAmount: bigint | null }, token: Token): Promise<void> {
  const minimum = (await acceptedTokenMinimum(db, token.network, token.contractAddress)) ?? 0n;
  if (prices.amount !== null) assertAtLeastMinimumPayment("amount", prices.amount, minimum, token);
  if (prices.minAmount !== null) assertAtLeastMinimumPayment("minAmount", prices.minAmount, minimum, token);
}

/**
 * A fixed amount, or a minimum the payer chooses above: exactly one of them. With a currency, the
 * fixed amount is in it (its minor units, docs/design.md §23): each Pay quotes the token then.
 */
function linkPrices(
  amount: string | null,
  minAmount: string | null,
  currency: string | null,
  token: Pick<Token, "decimals">,
): { amount: bigint | null; minAmount: bigint | null; currency: string | null; fiatAmount: bigint | null } {
  if (amount !== null && minAmount !== null) {
    throw linkRefusal(
      "VALIDATION_ERROR",
      "link-price-both",
      "give either amount (a fixed price) or minAmount (the payer chooses), not both",
    );
  }
  if (amount === null && minAmount === null) {
    throw linkRefusal(
      "VALIDATION_ERROR",
      "link-price-missing",
      "give amount (a fixed price) or minAmount (the least the payer may choose)",
    );
  }
  if (currency !== null) return fiatPrice(amount, currency);
  const field = amount !== null ? "amount" : "minAmount";
  const units = parseAmount(amount ?? minAmount ?? "", token.decimals);
  if (typeof units === "string") throw amountRefusal(field, units, token.decimals);
  const fiat = { currency: null, fiatAmount: null };
  return amount !== null ? { amount: units, minAmount: null, ...fiat } : { amount: null, minAmount: units, ...fiat };
}

function fiatPrice(amount: string | null, currency: string) {
  if (amount === null)
    throw linkRefusal("VALIDATION_ERROR", "link-fiat-fixed-only", "a price in a currency is a fixed amount: give amount, not minAmount", [
      { path: "minAmount", message: "a price in a currency is a fixed amount" },
    ]);
  const parsed = parseFiatAmount(currency, amount);
  if (!parsed.ok) {
    if (parsed.problem === "currency-unsupported")
      throw pricingRefusal(
        "VALIDATION_ERROR",
        "currency-unsupported",
        `currency ${currency} is not one this gateway prices in (USD, EUR, …)`,
        [{ path: "currency", message: "not a currency this gateway prices in" }],
      );
    throw amountRefusal("amount", parsed.problem, FIAT_MINOR_UNITS[currency] ?? 2);
  }
  return { amount: null, minAmount: null, currency, fiatAmount: parsed.amount.minor };
}

async function firstDomain(db: Db, userId: number): Promise<number> {
  const [domain] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.userId, userId), isNull(domains.deletedAt)))
    .orderBy(asc(domains.id))
    .limit(1);
  if (!domain)
    throw paymentRefusal(
      "DOMAIN_NOT_WHITELISTED",
      "no-domain",
      "add a domain before creating payment links: its wallet receives the payments",
    );
  return domain.id;
}

const NO_PAYMENTS: LinkStats = { payments: 0, received: 0n, lastPaymentAt: null };

async function viewsOf(db: Db, userId: number, links: PaymentLink[]): Promise<PaymentLinkView[]> {
  if (links.length === 0) return [];
  const ids = links.map((l) => l.id);
  const figures = await db
    .select({
      linkId: paymentSessions.paymentLinkId,
      payments: count(),
      received: sum(paymentSessions.receivedAmount),
      lastPaymentAt: max(paymentSessions.completedAt),
    })
    .from(paymentSessions)
    // Only the link's token: a Pay that read the link just before its token changed must not add other units.
    .innerJoin(paymentLinks, and(eq(paymentLinks.id, paymentSessions.paymentLinkId), eq(paymentLinks.tokenId, paymentSessions.tokenId)))
    .where(and(inArray(paymentSessions.paymentLinkId, ids), eq(paymentSessions.status, "completed"), eq(paymentSessions.userId, userId)))
    .groupBy(paymentSessions.paymentLinkId);
  const statsOf = new Map(
    figures.map((f) => [f.linkId, { payments: Number(f.payments), received: BigInt(f.received ?? 0), lastPaymentAt: f.lastPaymentAt }]),
  );
  const views: PaymentLinkView[] = [];
  for (const link of links) {
    const token = await findOwnToken(db, userId, link.tokenId);
    if (token) views.push(toLinkView(link, token, statsOf.get(link.id) ?? NO_PAYMENTS));
  }
  return views;
}
